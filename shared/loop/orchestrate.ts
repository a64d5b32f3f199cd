// The orchestration use case (Karpenter's orchestration queue, docs/functions/orchestrate.md): under the
// orchestration lease, remove disrupted taints no live command owns, then advance every open command one
// step further — replacements initialized → drain → terminate → delete; failed or timed-out replacements →
// roll back — each command in isolation: one that fails is recorded, retried with backoff and eventually
// given up, while the others move on. Every step is idempotent and re-derived from live state, so a crash
// anywhere is finished later. An overlapping start returns `held`; a lost lease stops before the next command.
import { DISRUPTED_TAINT_KEY } from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { NodePool } from '../model/nodepool.ts';
import { registrationTimeout } from '../provisioning/lifecycle.ts';
import type { SnapshotRead } from '../ports/cluster/index.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';
import { OPEN_COMMAND_STATUSES } from '../ports/state-store/command-states.ts';
import { ConditionFailedError } from '../ports/state-store/errors.ts';
import { untaint, type ActionDeps } from './command-actions.ts';
import { commandFailed, type CommandFailureReport, type FailurePolicy } from './command-failures.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';
import { identityOf } from './command-identity.ts';
import { clearDisruptionReason, DISRUPTION_REASON_CONDITION } from './disruption-reason.ts';
import { logOutcome } from './decision-log.ts';
import { commandTerminating, commandWaiting } from './disruption-events.ts';
import { publishEvents } from './events.ts';
import { drainCandidate, type DrainTally } from './drain.ts';
import { guard, type Guard } from './guard.ts';
import { recordReplacementFailure } from './replacement-backoff.ts';
import { launchVerdict } from './replacements.ts';
import { rollBack } from './rollback.ts';
import { TERMINATION_STARTED } from './termination.ts';
import { withLease, type LeaseDeps } from './with-lease.ts';

export { ADMISSION_GRACE_MS, REPLACEMENT_TIMEOUT_MS } from './replacements.ts';

export interface OrchestrateDeps extends ActionDeps, LeaseDeps {
  readonly store: StateStore;
  readonly metrics: Metrics;
}

export interface OrchestrateRequest extends FailurePolicy {
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
  /** The replacement backoff's base (docs/mechanisms/replacement-backoff.md); 0 or absent: none recorded. */
  readonly replacementBackoffMs?: number;
}

export interface Transition {
  readonly id: string;
  readonly to: CommandRecord['status'];
}

export interface OrchestrationPass {
  readonly transitions: readonly Transition[];
  /** Commands this pass could not advance (each recorded on its command; `terminal`: given up). */
  readonly failures: readonly CommandFailureReport[];
  /** Commands left alone this pass: an earlier failure's backoff has not run out. */
  readonly deferred: readonly string[];
  readonly strandedTaintsRemoved: readonly string[];
  readonly evictions: DrainTally;
  /** $/h saved by the commands this pass completed, as the pass that proposed them priced them. */
  readonly realizedSavingsPerHour: number;
}

export type OrchestrateResult =
  | ({ readonly outcome: 'ran'; readonly leaseLost: boolean } & OrchestrationPass)
  | { readonly outcome: 'held'; readonly holder: string };

export const ORCHESTRATION_LEASE_TTL_MS = 120_000;
/** A pool without its own registration timeout adds nothing to the replacement timeout. */
const NO_DEFAULT = { registrationMs: 0 };

/** The pass's snapshot, by name: a view that may lag; every destructive step re-reads what it acts on. */
export interface World {
  readonly nodes: ReadonlyMap<string, Node>;
  readonly claims: ReadonlyMap<string, NodeClaim>;
  readonly nodePools: ReadonlyMap<string, NodePool>;
  /** What the snapshot could not read makes its nodes untouchable (docs/mechanisms/identity.md#invalid-objects). */
  readonly guard: Guard;
}

/** Every command attempted in a pass failed: a systematic failure, so the invocation fails (and alarms). */
export class CommandsFailedError extends Error {
  override readonly name = 'CommandsFailedError';
  constructor(
    readonly failures: readonly CommandFailureReport[],
    options?: { cause?: unknown },
  ) {
    super(
      `every command orchestration attempted failed: ${failures.map((f) => `${f.id} (${f.status}, attempt ${f.attempts}): ${f.error}`).join('; ')}`,
      options,
    );
  }
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
  const { attempted, ...pass } = run.value;
  // One stuck command among moving ones is that command's (recorded, retried, given up); all of them failing
  // at once is the deployment's (permissions, an API down) and fails the invocation.
  if (attempted > 0 && pass.failures.length === attempted) throw new CommandsFailedError(pass.failures);
  return { outcome: 'ran', leaseLost: run.lost, ...pass };
}

async function orchestrationPass(
  deps: OrchestrateDeps,
  request: OrchestrateRequest,
  lost: AbortSignal,
): Promise<OrchestrationPass & { attempted: number }> {
  // The snapshot is read before the commands: a disrupted taint it shows was recorded before it was added.
  // A command admitted in between is listed but unseen by the snapshot: replacements.ts confirms by GET.
  const read = await deps.cluster.readSnapshot();
  const world = worldOf(read.objects, guard(deps, read));
  const open: CommandRecord[] = [];
  for (const s of OPEN_COMMAND_STATUSES)
    open.push(...(await deps.store.listCommandsByStatus(request.cluster, s)));
  open.sort((a, b) => a.seq - b.seq);
  const strandedTaintsRemoved = await removeStrandedTaints(deps, request.cluster, world, open);
  const pass: PassTally = {
    transitions: [],
    failures: [],
    deferred: [],
    evictions: { evicted: 0, blocked: 0, gone: 0 },
    saved: 0,
    attempted: 0,
  };
  for (const cmd of open) {
    if (lost.aborted) break; // a newer holder advances the rest from live state of its own
    if (cmd.retryAt && cmd.retryAt.getTime() > deps.clock.now().getTime()) {
      pass.deferred.push(cmd.id);
      continue;
    }
    pass.attempted += 1;
    await advanceIsolated(deps, request, world, cmd, pass);
  }
  return {
    transitions: pass.transitions,
    failures: pass.failures,
    deferred: pass.deferred,
    strandedTaintsRemoved,
    evictions: pass.evictions,
    realizedSavingsPerHour: pass.saved,
    attempted: pass.attempted,
  };
}

interface PassTally {
  readonly transitions: Transition[];
  readonly failures: CommandFailureReport[];
  readonly deferred: string[];
  readonly evictions: DrainTally;
  saved: number;
  attempted: number;
}

/** One command's step; its error is recorded on it (commandFailed) and never stops the others. */
async function advanceIsolated(
  deps: OrchestrateDeps,
  request: OrchestrateRequest,
  world: World,
  cmd: CommandRecord,
  pass: PassTally,
): Promise<void> {
  const at = { status: cmd.status };
  try {
    await advance(deps, request, world, cmd, pass, at);
    // A step went through after failed ones: the count is of consecutive failures.
    if (cmd.failures && at.status === cmd.status)
      await deps.store
        .recordCommandFailure(request.cluster, cmd.id, cmd.status, undefined)
        .catch(ignoreMoved);
  } catch (error: unknown) {
    pass.failures.push(await commandFailed(deps, request, cmd, at.status, error));
  }
}

const ignoreMoved = (error: unknown): void => {
  if (!(error instanceof ConditionFailedError)) throw error;
};

function worldOf(o: SnapshotRead['objects'], g: Guard): World {
  return {
    nodes: new Map(o.nodes.map((n) => [n.metadata.name, n])),
    claims: new Map(o.nodeClaims.map((c) => [c.metadata.name, c])),
    nodePools: new Map(o.nodePools.map((p) => [p.metadata.name, p])),
    guard: g,
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
    // A Node lifecycle is terminating keeps its taint (Karpenter spares nodes MarkedForDeletion).
    if (node.metadata.deletionTimestamp || node.metadata.annotations?.[TERMINATION_STARTED]) continue;
    const commands = await deps.store.findCommandsByCandidate(cluster, name);
    if (commands.some((c) => OPEN_COMMAND_STATUSES.includes(c.status))) continue;
    await untaint(deps, name);
    const claim = [...world.claims.values()].find((c) => c.status?.nodeName === name);
    if (claim?.status?.conditions?.some((c) => c.type === DISRUPTION_REASON_CONDITION))
      await clearDisruptionReason(deps.cluster, claim.metadata.name);
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
  at: { status: CommandRecord['status'] },
): Promise<void> {
  const move = async (from: CommandRecord['status'], to: CommandRecord['status']): Promise<boolean> => {
    try {
      await deps.store.transitionCommand(request.cluster, cmd.id, from, to);
    } catch (error: unknown) {
      if (error instanceof ConditionFailedError) return false; // moved by someone else: next invocation
      throw error;
    }
    at.status = to;
    pass.transitions.push({ id: cmd.id, to });
    if (to === 'completed' || to === 'rolled-back') {
      executed(deps.metrics, cmd, to, pass);
      logOutcome(deps.logger, to, cmd);
    }
    if (to === 'draining') await publishEvents(deps, commandTerminating(cmd, deps.clock.now()));
    return true;
  };
  let drainingSince = cmd.updatedAt;
  if (at.status === 'launching') {
    const verdict = await launchVerdict(
      deps,
      { ...request, registrationTimeoutMs: (p) => registrationTimeout(world.nodePools.get(p), NO_DEFAULT) },
      world.claims,
      cmd,
    );
    if (verdict.next === 'wait') {
      await publishEvents(deps, commandWaiting(cmd, deps.clock.now()));
      return;
    }
    if (!(await move('launching', verdict.next))) return;
    // The fork's queue holds a failed replacement's candidates off replaces (replacement-backoff.ts).
    if (verdict.next === 'rolling-back' && verdict.replacementFailed)
      await recordReplacementFailure(deps, request.cluster, request.replacementBackoffMs ?? 0, world, cmd);
    drainingSince = deps.clock.now();
  }
  if (at.status === 'rolling-back') {
    // A replacement an invalid object concerns is left in place, and the command stays rolling back.
    if (await rollBack(deps, world, cmd)) await move('rolling-back', 'rolled-back');
    return;
  }
  let done = true;
  for (const c of cmd.candidates) {
    // A candidate an invalid object concerns waits, tainted, until the object parses again.
    const id = identityOf(cmd, c);
    const target = { node: c, providerId: id?.providerId, claim: id?.claim };
    if (!(await world.guard.touchable('drain', target, { kind: 'Node', name: c }))) {
      done = false;
      continue;
    }
    // Re-read by the identity the command recorded: a candidate gone or replaced under its name is done.
    const finished = await drainCandidate(deps, cmd, c, drainingSince, pass.evictions);
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
