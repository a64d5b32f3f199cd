// The exact free room of the follow's slots (docs/mechanisms/delta-simulation.md, point 4), by node order: a max
// segment tree, so a node walk passes over the slots (or the lighter ones) a pod cannot fit without trying each.
// A necessary condition only, like the base's room tree (delta-room.ts): the slot's own check still decides.
import type { ResourceList } from '../model/resources.ts';
import { covers, lenient, STRIDE, TRACKED } from './delta-room.ts';

const R = TRACKED.length;

export class SlotRoom {
  private readonly size: number;
  /** STRIDE maxima per tree node (as delta-room.ts): a node not recorded holds -Infinity, never found. */
  private readonly max: Float64Array;

  constructor(nodes: number) {
    let size = 1;
    while (size < Math.max(1, nodes)) size *= 2;
    this.size = size;
    this.max = new Float64Array(2 * size * STRIDE).fill(Number.NEGATIVE_INFINITY);
  }

  /** Records node i's free room (`available` minus what its pods take, as `free`). */
  set(i: number, available: ResourceList, free: ResourceList): void {
    let at = i + this.size;
    for (let r = 0; r < R; r++) {
      const name = TRACKED[r] as string;
      this.max[at * STRIDE + r] = lenient(available[name] ?? 0, free[name] ?? 0);
    }
    this.max[at * STRIDE + R] = 1;
    for (at >>= 1; at >= 1; at >>= 1)
      for (let r = 0; r < STRIDE; r++)
        this.max[at * STRIDE + r] = Math.max(
          this.max[2 * at * STRIDE + r] as number,
          this.max[(2 * at + 1) * STRIDE + r] as number,
        );
  }

  /** The first node index in [from, below) whose recorded room covers every tracked want, or -1. */
  next(from: number, below: number, wants: Float64Array): number {
    return this.search(1, 0, this.size, from, below, wants);
  }

  private search(
    at: number,
    lo: number,
    hi: number,
    from: number,
    below: number,
    wants: Float64Array,
  ): number {
    if (hi <= from || lo >= below || !covers(this.max, at * STRIDE, wants)) return -1;
    if (hi - lo === 1) return lo;
    const mid = (lo + hi) >> 1;
    const found = this.search(2 * at, lo, mid, from, below, wants);
    return found >= 0 ? found : this.search(2 * at + 1, mid, hi, from, below, wants);
  }
}
