// The real Timer: setTimeout, cancelled by an AbortSignal (which resolves the sleep early, never rejects).
import type { Timer } from '../ports/timer.ts';

export const systemTimer: Timer = {
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = (): void => {
        clearTimeout(handle);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const handle = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    }),
};
