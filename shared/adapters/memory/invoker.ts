// An in-process Invoker for tests and the local fleet: behaves like Lambda's Event invocation — the payload
// travels as JSON (no shared references), the target runs later, a failed run is retried up to twice — and
// `settled()` waits until every invocation, including those the targets made themselves, has finished.
import { InvokeError, type InvokableFunction, type Invoker } from '../../ports/invoker.ts';

export type InProcessTarget = (payload: unknown, attempt: number) => Promise<unknown>;

export interface InvocationRecord {
  readonly target: InvokableFunction;
  readonly payload: unknown;
  readonly attempts: number;
  readonly outcome: 'succeeded' | 'failed';
  readonly error?: string;
}

export class InProcessInvoker implements Invoker {
  private readonly targets = new Map<InvokableFunction, InProcessTarget>();
  private readonly inFlight = new Set<Promise<void>>();
  readonly records: InvocationRecord[] = [];

  /** The last invocation queued, when they run one at a time. */
  private tail: Promise<void> = Promise.resolve();

  /**
   * Lambda retries a failed asynchronous invocation twice (three attempts in all). `serial` runs invocations one
   * at a time in the order they were made (the local fleet's deterministic mode, docs/fleet.md "Time").
   */
  constructor(
    private readonly maxAttempts = 3,
    private readonly serial = false,
  ) {}

  register(target: InvokableFunction, run: InProcessTarget): this {
    this.targets.set(target, run);
    return this;
  }

  async invoke(target: InvokableFunction, payload: unknown): Promise<void> {
    const run = this.targets.get(target);
    if (!run) throw new InvokeError(target, 'no in-process target registered');
    const copy: unknown = JSON.parse(JSON.stringify(payload));
    const job = this.serial
      ? (this.tail = this.tail.then(() => this.runLater(target, run, copy)))
      : this.runLater(target, run, copy);
    this.inFlight.add(job);
    void job.finally(() => this.inFlight.delete(job));
  }

  /** Resolves when nothing is running any more (invocations started while waiting are waited for too). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async runLater(target: InvokableFunction, run: InProcessTarget, payload: unknown): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    let error: unknown;
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      try {
        await run(payload, attempt);
        this.records.push({ target, payload, attempts: attempt, outcome: 'succeeded' });
        return;
      } catch (err: unknown) {
        error = err;
      }
    }
    this.records.push({
      target,
      payload,
      attempts: this.maxAttempts,
      outcome: 'failed',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  }
}
