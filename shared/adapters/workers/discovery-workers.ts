// Discovery workers' Speculation, for the CLI and the Lambda functions (docs/mechanisms/parallel-discovery.md): N worker threads simulate the candidates the walk
// gate lets through in a window of 2N ahead of the consumer. The consumer blocks for the candidate it is at with
// receiveMessageOnPort and Atomics.wait, so the core's walk stays synchronous; results are used in its order.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Speculation } from '../../disruption/speculation.ts';
import type { Candidate } from '../../disruption/types.ts';
import {
  CLAIMED_BY_CONSUMER,
  DISCOVERY_WORKER,
  replySchema,
  SIGNAL,
  type WorkerClaims,
  type WorkerInit,
  type WorkerTask,
} from './protocol.ts';

/** How long the consumer waits for one reply before it calls the workers stuck. */
const STUCK_MS = 10 * 60_000;
const WAIT_SLICE_MS = 1_000;

interface Thread {
  readonly worker: Worker;
  readonly port: MessagePort;
  pending: number;
}

interface Task<V> {
  readonly gen: number;
  readonly at: number;
  readonly key: string;
  done: boolean;
  verdict: V | undefined;
}

/** What a run's speculation did (not part of any JSON contract). */
export interface SpeculationStats {
  sent: number;
  answered: number;
  /** Candidates the consumer reached before any worker had started them: simulated in the consumer's thread. */
  taken: number;
  waitedMs: number;
}

/** Every run's stats added up in this process, for benches and tests (workers answered, not merely started). */
export const SPECULATION_TOTALS: SpeculationStats = { sent: 0, answered: 0, taken: 0, waitedMs: 0 };

/**
 * takeBack: the consumer simulates a candidate no worker has started rather than wait (on). The property test turns
 * it off so that every candidate sent is a worker's answer, whatever the machine's load.
 */
export const DISCOVERY_TUNING = { takeBack: true };

/**
 * Where a worker thread starts: from source (this module is TypeScript, run by tsx or vitest) the entry that
 * registers the loader; bundled (esbuild inlined this module), the bundle's entry that serves discovery.
 */
export function workerEntry(bundleEntry: string | URL | undefined): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./source-entry.mjs', import.meta.url);
  if (bundleEntry === undefined)
    throw new Error('discovery workers: running bundled, but no bundle entry was given to start them on');
  return new URL(bundleEntry);
}

export class WorkerSpeculation<V> implements Speculation<V> {
  readonly stats: SpeculationStats = { sent: 0, answered: 0, taken: 0, waitedMs: 0 };
  private claims = new Int32Array(new SharedArrayBuffer(0));
  private readonly signal = new Int32Array(new SharedArrayBuffer(8));
  private threads: Thread[] = [];
  private order: readonly Candidate[] = [];
  private readonly index = new Map<string, number>();
  private gate: (c: Candidate) => boolean = () => true;
  /** Candidates the gate refused: refused for the rest of the walk (the gate is monotone). */
  private readonly refused = new Set<string>();
  private readonly tasks = new Map<string, Task<V>>();
  private key = '[]';
  private gen = 0;

  /**
   * `bundleEntry`: the module a worker thread starts on when this code runs bundled (a Lambda's handler.mjs, which
   * serves discovery when its workerData says so, bundle-entry.ts); from source, source-entry.mjs.
   */
  constructor(
    private readonly count: number,
    private readonly init: WorkerInit,
    private readonly parse: (verdict: unknown) => V,
    private readonly bundleEntry?: string | URL,
  ) {}

  /** Started at the first begin(): a pass that ends before its walk (emptiness, drift, multi-node) starts none. */
  private start(): Thread[] {
    const { init } = this;
    return Array.from({ length: this.count }, () => {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(workerEntry(this.bundleEntry), {
        workerData: { [DISCOVERY_WORKER]: true, port: port2, signal: this.signal.buffer, init },
        transferList: [port2],
      });
      // A failing worker reports on its port (discovery-worker.mjs); the event is only kept from crashing us.
      worker.on('error', () => {});
      worker.unref();
      return { worker, port: port1, pending: 0 };
    });
  }

  begin(ordered: readonly Candidate[], gate: (c: Candidate) => boolean): void {
    if (this.threads.length === 0) this.threads = this.start();
    this.order = ordered;
    this.gate = gate;
    this.index.clear();
    this.refused.clear();
    this.tasks.clear();
    const claims: WorkerClaims = { kind: 'claims', claims: new SharedArrayBuffer(4 * ordered.length) };
    this.claims = new Int32Array(claims.claims);
    for (const t of this.threads) t.port.postMessage(claims);
    ordered.forEach((c, i) => this.index.set(c.name, i));
    this.fill(0, []);
  }

  outcome(candidate: Candidate, held: readonly Candidate[]): V | undefined {
    const names = held.map((h) => h.name);
    const key = JSON.stringify(names);
    if (key !== this.key) {
      // Answers for another held set are stale: workers skip the tasks of the old generation still queued.
      this.key = key;
      Atomics.store(this.signal, SIGNAL.generation, ++this.gen);
    }
    const at = this.index.get(candidate.name);
    if (at === undefined) return undefined;
    this.fill(at + 1, names);
    const task = this.tasks.get(candidate.name);
    if (!task) return undefined;
    // No worker has started it (still starting up, or busy ahead): this thread takes it instead of waiting.
    if (
      DISCOVERY_TUNING.takeBack &&
      !task.done &&
      Atomics.compareExchange(this.claims, task.at, 0, CLAIMED_BY_CONSUMER) === 0
    ) {
      this.tasks.delete(candidate.name);
      this.stats.taken++;
      return undefined;
    }
    this.await(task);
    this.tasks.delete(candidate.name);
    // Possibly computed with another held set: the walk trusts only a verdict that names its own.
    return task.verdict;
  }

  /** Stops the workers (they hold no resources beyond their thread). */
  close(): void {
    SPECULATION_TOTALS.sent += this.stats.sent;
    SPECULATION_TOTALS.answered += this.stats.answered;
    SPECULATION_TOTALS.waitedMs += this.stats.waitedMs;
    SPECULATION_TOTALS.taken += this.stats.taken;
    for (const t of this.threads) {
      t.port.close();
      void t.worker.terminate();
    }
  }

  /** Keeps 2N candidates the gate lets through, after `from`, sent for the current held set. */
  private fill(from: number, held: readonly string[]): void {
    let ahead = 0;
    for (let i = from; i < this.order.length && ahead < 2 * this.threads.length; i++) {
      const c = this.order[i] as Candidate;
      const task = this.tasks.get(c.name);
      // An answer already in for another held set is kept: the walk judges it (and simulates here if stale).
      if (task?.key === this.key || task?.done) {
        ahead++;
        continue;
      }
      if (this.refused.has(c.name)) continue;
      if (!this.gate(c)) {
        this.refused.add(c.name);
        continue;
      }
      this.send(c.name, i, held);
      ahead++;
    }
  }

  private send(name: string, at: number, held: readonly string[]): void {
    const thread = this.threads.reduce((a, b) => (b.pending < a.pending ? b : a));
    const task: WorkerTask = { kind: 'task', name, held, gen: this.gen, at };
    thread.port.postMessage(task);
    thread.pending++;
    this.stats.sent++;
    this.tasks.set(name, { gen: this.gen, at, key: this.key, done: false, verdict: undefined });
  }

  private await(task: Task<V>): void {
    const began = performance.now();
    while (!task.done) {
      const seen = Atomics.load(this.signal, SIGNAL.replies);
      this.drain();
      if (task.done) break;
      Atomics.wait(this.signal, SIGNAL.replies, seen, WAIT_SLICE_MS);
      if (performance.now() - began > STUCK_MS)
        throw new Error(`discovery workers sent no answer for ${STUCK_MS / 60_000} minutes`);
    }
    this.stats.waitedMs += performance.now() - began;
  }

  private drain(): void {
    for (const thread of this.threads) {
      for (let m = receiveMessageOnPort(thread.port); m; m = receiveMessageOnPort(thread.port)) {
        const reply = replySchema.safeParse(m.message);
        if (!reply.success)
          throw new Error(`a discovery worker sent a malformed reply: ${reply.error.message}`);
        if ('error' in reply.data) throw new Error(`a discovery worker failed: ${reply.data.error}`);
        thread.pending--;
        const task = this.tasks.get(reply.data.name);
        if (!task || task.gen !== reply.data.gen || task.done) continue;
        task.done = true;
        this.stats.answered++;
        if (reply.data.verdict !== undefined) task.verdict = this.parse(reply.data.verdict);
      }
    }
  }
}
