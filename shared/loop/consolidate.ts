// The consolidation use case (docs/architecture.md, one consolidation pass): under the consolidation lease, read the
// cluster once, run one pass (which reads and persists the pass state and emits the pass metrics), and hand
// the held proposals, in order, to admission as one validated, bounded payload.
import { parseProposals, toProposal, type Proposal } from '../disruption/proposal.ts';
import type { PassResult } from '../disruption/pass.ts';
import type { PassOptions } from '../disruption/types.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { buildSnapshot } from '../state/snapshot.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { disruptionPass, type DisruptionPassDeps } from './disruption-pass.ts';

export interface ConsolidateDeps extends DisruptionPassDeps {
  readonly cluster: Cluster;
  /** Instance types with current prices for these objects' NodePools. */
  instanceTypes(objects: ClusterObjects): Promise<readonly InstanceType[]>;
  /** Starts admission with these proposals (an async invoke of `admit` in Lambda). */
  handOff(proposals: readonly Proposal[]): Promise<void>;
}

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
}

export async function consolidate(
  deps: ConsolidateDeps,
  request: ConsolidateRequest,
): Promise<ConsolidateResult> {
  const o = request.options;
  const lease = await deps.store.acquireLease({
    cluster: request.cluster,
    name: 'consolidation',
    owner: request.owner,
    ttlMs: request.leaseTtlMs ?? Math.min(3_600_000, o.multiNodeTimeoutMs + o.singleNodeTimeoutMs + 120_000),
    ...(request.runId ? { runId: request.runId } : {}),
  });
  try {
    const read = await deps.cluster.readSnapshot(); // a warm container catches up from its resourceVersions
    const types = await deps.instanceTypes(read.objects);
    const snapshot = buildSnapshot(read.objects, types);
    const pass = await disruptionPass(deps, { cluster: request.cluster, snapshot, options: o });
    if (pass.commands.length === 0) return { pass, handedOff: [] };
    // Validated and bounded here as at admit's end: a payload the event limit would refuse fails the pass.
    const proposals = parseProposals(pass.commands.map(toProposal), 'consolidate.proposals');
    await deps.handOff(proposals);
    return { pass, handedOff: proposals };
  } finally {
    await deps.store.releaseLease(lease).catch(() => undefined);
  }
}

/** The walk budgets shrunk, in proportion, to the time an invocation has left (the pass runs them in turn). */
export function withinInvocation(o: PassOptions, leftMs: number): PassOptions {
  const walks = o.multiNodeTimeoutMs + o.singleNodeTimeoutMs;
  if (walks <= leftMs) return o;
  const multi = Math.floor((leftMs * o.multiNodeTimeoutMs) / walks);
  return { ...o, multiNodeTimeoutMs: multi, singleNodeTimeoutMs: Math.max(0, leftMs - multi) };
}
