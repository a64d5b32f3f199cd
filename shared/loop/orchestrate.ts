// The orchestration use case (Karpenter's orchestration queue, docs/mechanisms/batched-admission.md): under
// the orchestration lease, remove disrupted taints no live command owns, then advance every open command one
// step further — replacements initialized → drain → terminate → delete; failed or timed-out replacements →
// roll back. Every step is idempotent and re-derived from live state, so a crash anywhere is finished later.
// An overlapping start finds the lease held and returns `held`; a lost lease stops before the next command.
import { DISRUPTED_TAINT_KEY } from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import { claimCondition, type NodeClaim } from '../model/nodeclaim.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';
import { OPEN_COMMAND_STATUSES } from '../ports/state-store/command-states.ts';
import { ConditionFailedError } from '../ports/state-store/errors.ts';
import { removeNode, untaint, type ActionDeps } from './command-actions.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';
import { drainNode, type DrainTally } from './drain.ts';
import { withLease, type LeaseDeps } from './with-lease.ts';

export interface OrchestrateDeps extends ActionDeps, LeaseDeps {
  readonly store: StateStore;
  readonly metrics: Metrics;
}

export interface OrchestrateRequest {
  readonly cluster: string;
  /** Unique per attempt (request id + nonce). */
  readonly owner: string;
  /** The schedule's event id: a second delivery of the same firing does not run a second pass. */
  readonly runId?: string;
  /** Two minutes by default; heartbeats keep a long drain's lease. */
  readonly leaseTtlMs?: number;
  /** A replacement not initialized this long after admission is given up and the command rolled back. */
  readonly replacementTimeoutMs?: number;
  /** An unconfirmed command this old lost its admitter (crash, lost lock): it is rolled back. */
  readonly admissionGraceMs?: number;
}

export interface Transition {
  readonly id: string;
  readonly to: CommandRecord['status'];
}

export interface OrchestrationPass {
  readonly transitions: readonly Transition[];
  readonly strandedTaintsRemoved: readonly string[];
  readonly evictions: DrainTally;
  /** $/h saved by the commands this pass completed, as the pass that proposed them priced them. */
  readonly realizedSavingsPerHour: number;
}

export type OrchestrateResult =
  | ({ readonly outcome: 'ran'; readonly leaseLost: boolean } & OrchestrationPass)
  | { readonly outcome: 'held'; readonly holder: string };

export const REPLACEMENT_TIMEOUT_MS = 15 * 60_000;
export const ADMISSION_GRACE_MS = 10 * 60_000;
export const ORCHESTRATION_LEASE_TTL_MS = 120_000;

export interface World {
  readonly nodes: ReadonlyMap<string, Node>;
  readonly claims: ReadonlyMap<string, NodeClaim>;
  /** NodeClaim by the node it registered as. */
  readonly claimOfNode: ReadonlyMap<string, NodeClaim>;
}

export async function orchestrate(
  deps: OrchestrateDeps,
  request: OrchestrateRequest,
): Promise<OrchestrateResult> {
  const run = await withLease(
    deps,
    {
      cluster: request.cluster,
      name: 'orchestration',
      owner: request.owner,
      ttlMs: request.leaseTtlMs ?? ORCHESTRATION_LEASE_TTL_MS,
      ...(request.runId ? { runId: request.runId } : {}),
    },
    (lease) => orchestrationPass(deps, request, lease.signal),
  );
  if (run.outcome === 'held') return { outcome: 'held', holder: run.holder.owner };
  return { outcome: 'ran', leaseLost: run.lost, ...run.value };
}

async function orchestrationPass(
  deps: OrchestrateDeps,
  request: OrchestrateRequest,
  lost: AbortSignal,
): Promise<OrchestrationPass> {
  // The snapshot is read before the commands: a disrupted taint it shows was recorded before it was added.
  const read = await deps.cluster.readSnapshot();
  const world = worldOf(read.objects.nodes, read.objects.nodeClaims);
  const open: CommandRecord[] = [];
  for (const s of OPEN_COMMAND_STATUSES)
    open.push(...(await deps.store.listCommandsByStatus(request.cluster, s)));
  open.sort((a, b) => a.seq - b.seq);
  const strandedTaintsRemoved = await removeStrandedTaints(deps, request.cluster, world, open);
  const pass = { transitions: [] as Transition[], evictions: { evicted: 0, blocked: 0, gone: 0 }, saved: 0 };
  for (const cmd of open) {
    if (lost.aborted) break; // a newer holder advances the rest from live state of its own
    await advance(deps, request, world, cmd, pass);
  }
  return {
    transitions: pass.transitions,
    strandedTaintsRemoved,
    evictions: pass.evictions,
    realizedSavingsPerHour: pass.saved,
  };
}

interface PassTally {
  readonly transitions: Transition[];
  readonly evictions: DrainTally;
  saved: number;
}

function worldOf(nodes: readonly Node[], claims: readonly NodeClaim[]): World {
  const claimOfNode = new Map<string, NodeClaim>();
  const byProvider = new Map(
    nodes.flatMap((n) => (n.spec?.providerID ? [[n.spec.providerID, n.metadata.name]] : [])),
  );
  for (const c of claims) {
    const node =
      c.status?.nodeName ?? (c.status?.providerID ? byProvider.get(c.status.providerID) : undefined);
    if (node) claimOfNode.set(node, c);
  }
  return {
    nodes: new Map(nodes.map((n) => [n.metadata.name, n])),
    claims: new Map(claims.map((c) => [c.metadata.name, c])),
    claimOfNode,
  };
}

/** A disrupted taint is stranded when no open command names its node (read back consistently before removing). */
async function removeStrandedTaints(
  deps: OrchestrateDeps,
  cluster: string,
  world: World,
  open: readonly CommandRecord[],
): Promise<string[]> {
  const owned = new Set(open.flatMap((c) => c.candidates));
  const removed: string[] = [];
  for (const [name, node] of world.nodes) {
    if (owned.has(name) || !(node.spec?.taints ?? []).some((t) => t.key === DISRUPTED_TAINT_KEY)) continue;
    const commands = await deps.store.findCommandsByCandidate(cluster, name);
    if (commands.some((c) => OPEN_COMMAND_STATUSES.includes(c.status))) continue;
    await untaint(deps, name);
    removed.push(name);
    deps.metrics.count(LOOP_METRICS.strandedTaintsRemovedTotal, 1);
  }
  return removed;
}

async function advance(
  deps: OrchestrateDeps,
  request: OrchestrateRequest,
  world: World,
  cmd: CommandRecord,
  pass: PassTally,
): Promise<void> {
  const move = async (from: CommandRecord['status'], to: CommandRecord['status']): Promise<boolean> => {
    try {
      await deps.store.transitionCommand(request.cluster, cmd.id, from, to);
    } catch (error: unknown) {
      if (error instanceof ConditionFailedError) return false; // moved by someone else: next invocation
      throw error;
    }
    pass.transitions.push({ id: cmd.id, to });
    if (to === 'completed' || to === 'rolled-back') executed(deps.metrics, cmd, to, pass);
    return true;
  };
  let status = cmd.status;
  let drainingSince = cmd.updatedAt;
  if (status === 'launching') {
    const next = launchVerdict(deps.clock.now(), request, world, cmd);
    if (next === 'wait') return;
    if (!(await move('launching', next))) return;
    status = next;
    drainingSince = deps.clock.now();
  }
  if (status === 'rolling-back') {
    for (const c of cmd.candidates) if (world.nodes.has(c)) await untaint(deps, c);
    for (const r of cmd.replacements) {
      const claim = world.claims.get(r);
      const node = claim?.status?.nodeName ? world.nodes.get(claim.status.nodeName) : undefined;
      await removeNode(deps, node, claim);
    }
    await move('rolling-back', 'rolled-back');
    return;
  }
  let done = true;
  for (const c of cmd.candidates) {
    // Resolved by candidate name from the command record: a candidate deleted under us is simply done.
    const finished = await drainNode(deps, world, c, drainingSince, pass.evictions);
    done &&= finished;
  }
  if (done) await move('draining', 'completed');
}

/** Commands executed by decision; a completed one realizes the savings its proposing pass priced. */
function executed(
  metrics: Metrics,
  cmd: CommandRecord,
  to: 'completed' | 'rolled-back',
  pass: PassTally,
): void {
  const labels = { decision: cmd.decision, method: cmd.method };
  metrics.count(LOOP_METRICS.commandsExecutedTotal, 1, { ...labels, result: to });
  if (to !== 'completed' || cmd.savingsPerHour === undefined) return;
  metrics.count(LOOP_METRICS.realizedSavingsPerHour, cmd.savingsPerHour, labels);
  pass.saved += cmd.savingsPerHour;
}

/** What a launching command does next: drain once every replacement initialized, roll back on failure. */
function launchVerdict(
  now: Date,
  request: OrchestrateRequest,
  world: World,
  cmd: CommandRecord,
): 'wait' | 'draining' | 'rolling-back' {
  const age = now.getTime() - cmd.createdAt.getTime();
  if (!cmd.confirmedAt)
    return age > (request.admissionGraceMs ?? ADMISSION_GRACE_MS) ? 'rolling-back' : 'wait';
  let ready = true;
  for (const name of cmd.replacements) {
    const claim = world.claims.get(name);
    if (!claim || claim.metadata.deletionTimestamp || claimCondition(claim, 'Launched') === false)
      return 'rolling-back';
    if (claimCondition(claim, 'Initialized') !== true) ready = false;
  }
  if (ready) return 'draining';
  return age > (request.replacementTimeoutMs ?? REPLACEMENT_TIMEOUT_MS) ? 'rolling-back' : 'wait';
}
