// inParallel: results in the items' order, never more than `limit` calls in flight, and after a failure no
// new call starts, the ones in flight finish, and the first error is thrown.
import { describe, expect, it } from 'vitest';
import { inParallel } from '../../../shared/loop/parallel.ts';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('inParallel', () => {
  it('keeps the order and the bound', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await inParallel([5, 1, 4, 2, 3, 0, 6], 3, async (n, i) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      for (let k = 0; k < n; k++) await tick();
      inFlight -= 1;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6']);
    expect(peak).toBe(3);
  });

  it('stops starting calls after a failure and throws the first error', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = inParallel([0, 1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 1) throw new Error('claim 1 refused');
      await tick();
      finished.push(n);
      return n;
    });
    await expect(run).rejects.toThrow('claim 1 refused');
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([0]);
  });

  it('an empty list runs nothing', async () => {
    expect(await inParallel([], 4, async () => 1)).toEqual([]);
  });
});
