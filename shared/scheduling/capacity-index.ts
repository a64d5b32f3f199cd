// Finds, in node order, the next existing node with room for a pod: a max segment tree per tracked resource
// over the nodes' free capacity. A necessary condition only — the node's full check still decides — but it
// skips the full nodes of a large fleet in O(log n) instead of trying each in turn.
import { CPU, MEMORY, NVIDIA_GPU, PODS, type ResourceList } from '../model/resources.ts';

const TRACKED = [CPU, MEMORY, NVIDIA_GPU, PODS] as const;

export class CapacityIndex {
  private readonly size: number;
  private readonly trees: Float64Array[];

  constructor(free: readonly ResourceList[]) {
    let size = 1;
    while (size < Math.max(1, free.length)) size *= 2;
    this.size = size;
    // built bottom-up: O(n) per simulation instead of a root path per node
    this.trees = TRACKED.map((r) => {
      const tree = new Float64Array(2 * size).fill(Number.NEGATIVE_INFINITY);
      for (let i = 0; i < free.length; i++) tree[size + i] = (free[i] as ResourceList)[r] ?? 0;
      for (let at = size - 1; at >= 1; at--)
        tree[at] = Math.max(tree[2 * at] as number, tree[2 * at + 1] as number);
      return tree;
    });
  }

  /** Records node i's free capacity (after a placement or its undo). */
  set(i: number, free: ResourceList): void {
    TRACKED.forEach((r, t) => {
      const tree = this.trees[t] as Float64Array;
      let at = i + this.size;
      tree[at] = free[r] ?? 0;
      for (at >>= 1; at >= 1; at >>= 1)
        tree[at] = Math.max(tree[2 * at] as number, tree[2 * at + 1] as number);
    });
  }

  /** The tracked part of a pod's requests, computed once per placement attempt. */
  static wants(requests: ResourceList): readonly number[] {
    return TRACKED.map((r) => requests[r] ?? 0);
  }

  /** The first node index ≥ from whose free capacity covers every tracked resource wanted, or -1. */
  next(from: number, want: readonly number[]): number {
    return this.search(1, 0, this.size, from, want);
  }

  private fits(at: number, want: readonly number[]): boolean {
    for (let t = 0; t < want.length; t++)
      if ((want[t] as number) > 0 && ((this.trees[t] as Float64Array)[at] as number) < (want[t] as number))
        return false;
    return true;
  }

  private search(at: number, lo: number, hi: number, from: number, want: readonly number[]): number {
    if (hi <= from || !this.fits(at, want)) return -1;
    if (hi - lo === 1) return lo;
    const mid = (lo + hi) >> 1;
    const left = this.search(2 * at, lo, mid, from, want);
    return left >= 0 ? left : this.search(2 * at + 1, mid, hi, from, want);
  }
}
