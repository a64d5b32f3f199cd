// The consolidation use case (docs/architecture.md, one consolidation pass): under the consolidation lease
// (with-lease.ts: heartbeat, release, a per-attempt owner), read the cluster once, run one pass (which reads and
// persists the pass state and emits the pass metrics), and hand the held proposals, in order, to admission as
// one validated, bounded payload. An overlapping start finds the lease held and returns `held` at once.
import { parseProposals, toProposal, type Proposal } from '../disruption/proposal.ts';
import type { PassResult } from '../disruption/pass.ts';
import type { PassOptions } from '../disruption/types.ts';
import { buildInstanceTypes, type InstanceType } from '../scheduling/instance-type.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { buildSnapshot } from '../state/snapshot.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { WalkDiscovery } from '../ports/discovery.ts';
import { logProposal, logSkips } from './decision-log.ts';
import { skipEvents } from './disruption-events.ts';
import { publishEvents } from './events.ts';
import { disruptionPass, type DisruptionPassDeps } from './disruption-pass.ts';
import { untouchableNodes } from './untouchable.ts';
import { withLease, type HeldLease, type LeaseDeps } from './with-lease.ts';

export interface ConsolidateDeps extends DisruptionPassDeps, LeaseDeps {
  readonly cluster: Cluster;
  /** Instance types with current prices for these objects' NodePools. */
  instanceTypes(objects: ClusterObjects): Promise<readonly InstanceType[]>;
  /** Starts admission with these proposals (an async invoke of `admit` in Lambda). */
  handOff(proposals: readonly Proposal[]): Promise<void>;
  /** Worker threads for the single-node walk (docs/mechanisms/parallel-discovery.md); absent or 1: none. */
  readonly discovery?: WalkDiscovery;
}

/** The running loop judges pool readiness from the node classes (snapshot.ts SnapshotOptions). */
const LIVE = { poolReadiness: true } as const;

export interface ConsolidateRequest {
  readonly cluster: string;
  /** Unique per attempt (request id + nonce). */
  readonly owner: string;
  /** The schedule's event id: a second firing of the same run does not run a second pass. */
  readonly runId?: string;
  readonly options: PassOptions;
  /** The lease must outlive the walk budgets. */
  readonly leaseTtlMs?: number;
}

export interface ConsolidateResult {
  readonly pass: PassResult;
  readonly handedOff: readonly Proposal[];
  /** The lease was lost during the pass (taken over after expiry): its proposals were not handed off. */
  readonly lost: boolean;
}

export type ConsolidateOutcome =
  | ({ readonly outcome: 'ran' } & ConsolidateResult)
  | { readonly outcome: 'held'; readonly holder: string; readonly reason: 'held' | 'same-run' };

export async function consolidate(
  deps: ConsolidateDeps,
  request: ConsolidateRequest,
): Promise<ConsolidateOutcome> {
  const o = request.options;
  const run = await withLease(
    deps,
    {
      cluster: request.cluster,
      name: 'consolidation',
      owner: request.owner,
      ttlMs:
        request.leaseTtlMs ?? Math.min(3_600_000, o.multiNodeTimeoutMs + o.singleNodeTimeoutMs + 120_000),
      ...(request.runId ? { runId: request.runId } : {}),
    },
    (lease) => passAndHandOff(deps, request, lease),
  );
  if (run.outcome === 'held') return { outcome: 'held', holder: run.holder.owner, reason: run.reason };
  return { outcome: 'ran', ...run.value };
}

async function passAndHandOff(
  deps: ConsolidateDeps,
  request: ConsolidateRequest,
  lease: HeldLease,
): Promise<ConsolidateResult> {
  const read = await deps.cluster.readSnapshot(); // a warm container catches up from its resourceVersions
  // With workers, the types are built here from the specs the workers rebuild them from (the same cached read).
  const workers = deps.discovery && deps.discovery.workers > 1 ? deps.discovery : undefined;
  const specs = workers ? await workers.instanceTypes(read.objects) : undefined;
  const types = specs ? buildInstanceTypes(specs) : await deps.instanceTypes(read.objects);
  const snapshot = buildSnapshot(read.objects, types, LIVE);
  const pass = await disruptionPass(deps, {
    cluster: request.cluster,
    snapshot,
    options: request.options,
    untouchable: untouchableNodes(read),
    signal: lease.signal,
    ...(workers && specs
      ? { discovery: (i) => workers.walk({ ...i, instanceTypes: specs, snapshotOptions: LIVE }) }
      : {}),
  });
  logSkips(deps.logger, pass.skipped);
  await publishEvents(deps, skipEvents(pass.skipped, snapshot, deps.clock.now()));
  // A holder that lost the lease may overlap a newer pass: its proposals would be admitted twice over (the
  // newer pass proposes from the same state), so it hands off nothing and the next minute's pass decides.
  if (lease.signal.aborted) {
    deps.logger.warn('consolidation lease lost during the pass; proposals not handed off', {
      proposals: pass.commands.length,
    });
    return { pass, handedOff: [], lost: true };
  }
  if (pass.commands.length === 0) return { pass, handedOff: [], lost: false };
  // Validated and bounded here as at admit's end: a payload the event limit would refuse fails the pass.
  const proposals = parseProposals(pass.commands.map(toProposal), 'consolidate.proposals');
  for (const p of proposals) logProposal(deps.logger, 'proposed', p, { snapshot });
  await deps.handOff(proposals);
  return { pass, handedOff: proposals, lost: false };
}

/** The walk budgets shrunk, in proportion, to the time an invocation has left (the pass runs them in turn). */
export function withinInvocation(o: PassOptions, leftMs: number): PassOptions {
  const walks = o.multiNodeTimeoutMs + o.singleNodeTimeoutMs;
  if (walks <= leftMs) return o;
  const multi = Math.floor((leftMs * o.multiNodeTimeoutMs) / walks);
  return { ...o, multiNodeTimeoutMs: multi, singleNodeTimeoutMs: Math.max(0, leftMs - multi) };
}
