// A discovery worker (docs/mechanisms/parallel-discovery.md): rebuilds the consumer's pass or census from the same
// parsed input, then simulates each candidate it is sent and replies with compact data only.
import { workerData, type MessagePort } from 'node:worker_threads';
import { censusSetup, judgeCandidate } from '../../disruption/census.ts';
import { computeConsolidation } from '../../disruption/consolidation.ts';
import { passSetup } from '../../disruption/pass.ts';
import type { SpeculativeVerdict } from '../../disruption/speculation.ts';
import type { Candidate, Stopwatch } from '../../disruption/types.ts';
import { buildInstanceTypes } from '../../scheduling/instance-type.ts';
import { buildSnapshot } from '../../state/snapshot.ts';
import {
  CLAIMED_BY_WORKER,
  SIGNAL,
  type WorkerClaims,
  type WorkerInit,
  type WorkerReply,
  type WorkerTask,
} from './protocol.ts';

interface WorkerData {
  readonly port: MessagePort;
  readonly signal: SharedArrayBuffer;
  readonly init: WorkerInit;
}

function wallStopwatch(): Stopwatch {
  const start = performance.now();
  return { elapsedMs: () => performance.now() - start };
}

/**
 * The same snapshot, context and candidates the consumer built (the CLI's command-context.ts, or the loop's
 * consolidate.ts and sync gate). Nominated and untouchable nodes are not passed: they only leave the candidate
 * list, and the consumer never asks about a non-candidate.
 */
function rebuild(i: WorkerInit) {
  const built = buildSnapshot(i.objects, buildInstanceTypes(i.instanceTypes), i.snapshotOptions);
  const runPast = new Set(i.runPast ?? []);
  const snapshot =
    runPast.size === 0 ? built : { ...built, inFlight: built.inFlight.filter((n) => !runPast.has(n.name)) };
  const now = new Date(i.now);
  const claimedByCommands = new Set(i.claimedByCommands);
  const verdicts = i.verdicts ? new Set(i.verdicts) : undefined;
  const stopwatch = wallStopwatch();
  const { ctx, set } =
    i.command === 'plan'
      ? passSetup({ snapshot, now, options: i.options, stopwatch, claimedByCommands, verdicts })
      : censusSetup(snapshot, now, i.options, stopwatch, claimedByCommands);
  return { ctx, byName: new Map(set.candidates.map((c) => [c.name, c] as const)), stopwatch };
}

type Built = ReturnType<typeof rebuild>;

/** The walk's visit() of single-node.ts for one candidate, reduced to its verdict (its candidate budget included). */
function walkVerdict(
  { ctx, stopwatch }: Built,
  c: Candidate,
  held: readonly Candidate[],
): SpeculativeVerdict {
  const base = { candidate: c.name, held: held.map((h) => h.name) };
  const began = stopwatch.elapsedMs();
  const over = () => stopwatch.elapsedMs() - began > ctx.options.candidateTimeoutMs;
  const outcome = computeConsolidation(ctx, 'single-node-consolidation', [c], held, { passed: over });
  if ((outcome.kind === 'no-op' && outcome.reason === 'timed-out') || over())
    return { ...base, kind: 'timed-out' };
  if (outcome.kind === 'command') return { ...base, kind: 'command-found' };
  return { ...base, kind: 'no-op', reason: outcome.reason, detail: outcome.detail };
}

/** Serves this thread's tasks until the consumer closes the port (the thread's workerData says how). */
export function serveDiscovery(): void {
  const { port, signal: buffer, init } = workerData as WorkerData;
  const signal = new Int32Array(buffer);
  let claims = new Int32Array(new SharedArrayBuffer(0));
  const reply = (message: WorkerReply): void => {
    port.postMessage(message);
    Atomics.add(signal, SIGNAL.replies, 1);
    Atomics.notify(signal, SIGNAL.replies);
  };
  const answer = (built: Built, task: WorkerTask): WorkerReply => {
    const { name, gen } = task;
    // The consumer moved to another held set since this task was sent: its answer would not be trusted.
    if (Atomics.load(signal, SIGNAL.generation) !== gen) return { name, gen };
    // The consumer reached this candidate first and simulates it itself.
    if (Atomics.compareExchange(claims, task.at, 0, CLAIMED_BY_WORKER) !== 0) return { name, gen };
    const c = built.byName.get(name);
    const held = task.held.map((h) => built.byName.get(h));
    if (!c || held.some((h) => h === undefined)) return { name, gen };
    const verdict =
      init.command === 'plan' ? walkVerdict(built, c, held as Candidate[]) : judgeCandidate(built.ctx, c);
    return { name, gen, verdict };
  };
  try {
    const built = rebuild(init);
    port.on('message', (task: WorkerTask | WorkerClaims) => {
      if (task.kind === 'claims') {
        claims = new Int32Array(task.claims);
        return;
      }
      try {
        reply(answer(built, task));
      } catch (e) {
        reply({ error: `${task.name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` });
      }
    });
  } catch (e) {
    reply({
      error: `could not rebuild the input: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    });
  }
}
