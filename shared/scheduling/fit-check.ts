// The scheduler's own new-claim check for one pod, for callers that follow a scheduling run pod by pod without
// running it (the delta simulation, docs/mechanisms/delta-simulation.md). Topology is left out: a caller may use
// it only for pods no topology group owns or counts.
import { DomainUniverse } from './domains.ts';
import type { InstanceType } from './instance-type.ts';
import { Journal } from './journal.ts';
import { NewClaim } from './new-claim.ts';
import type { PodState } from './pod-state.ts';
import type { NodeClaimTemplate } from './template.ts';
import { Topology } from './topology.ts';

// No groups, no bound pods: addRequirements answers the claim's own requirements and record counts nothing, so it
// is never mutated and can be shared. The journal records only inside begin(), which nothing here calls.
const journal = new Journal();
const noTopology = new Topology(
  new DomainUniverse(),
  new Map(),
  [],
  [],
  { reachableDomainsOnly: true, allowUndefined: new Set() },
  journal,
);

/** Whether a new claim of `template` limited to `types` would take `pod` (the scheduler's new-claim step). */
export function newClaimAccepts(
  template: NodeClaimTemplate,
  types: readonly InstanceType[],
  pod: PodState,
  allowUndefined: ReadonlySet<string>,
): boolean {
  if (types.length === 0) return false;
  const claim = new NewClaim(template, 'hostname-placeholder-check', types, allowUndefined);
  return claim.add(pod, noTopology, journal) === undefined;
}
