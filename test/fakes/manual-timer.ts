// A Timer whose sleeps end only when a test fires them: heartbeats and polls happen exactly when told.
import type { Timer } from '../../shared/ports/timer.ts';

export class ManualTimer implements Timer {
  private waiting: (() => void)[] = [];
  /** Sleeps started so far (a test can wait until a loop has gone back to sleep). */
  started = 0;
  /** The length of each sleep asked for, in order. */
  readonly asked: number[] = [];
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.started += 1;
    this.asked.push(ms);
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      this.waiting.push(resolve);
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  }
  /** Ends every sleep in progress. */
  fire(): void {
    const all = this.waiting.splice(0);
    for (const resolve of all) resolve();
  }
}
