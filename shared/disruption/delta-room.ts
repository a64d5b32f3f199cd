// The base's node room over queue time (docs/mechanisms/delta-simulation.md, point 4): a persistent max segment
// tree, one version per base arrival, so a follow's node walk skips the nodes the base had filled by its queue
// place in O(log n) instead of trying each. A necessary condition only: the node's full check still decides.
import { CPU, MEMORY, NVIDIA_GPU, PODS, type ResourceList } from '../model/resources.ts';
import { staticallyRejects, type ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PodState } from '../scheduling/pod-state.ts';
import type { BaseSolution } from './base-solution.ts';

/** The resources the tree tracks, as the scheduler's CapacityIndex does. */
export const TRACKED = [CPU, MEMORY, NVIDIA_GPU, PODS] as const;
const R = TRACKED.length;
/** Per tree node: the R tracked maxima, then whether a node below is kept (1, or -Infinity: never found). */
export const STRIDE = R + 1;

/**
 * Room stored a little larger than computed, so float rounding (sums past 2^53 milli-units, saturated
 * quantities) never makes the tree rule out a node `fitsSum(load, want, available)` accepts: lenient is safe.
 */
export function lenient(available: number, room: number): number {
  return room + 1e-9 * (Math.abs(available) + Math.abs(available - room) + 1);
}

/** How many of the ascending `sorted` are below `t` (binary search). */
export function countBelow(sorted: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The tracked part of a pod's requests, once per walk (and a kept node: even a pod that asks for nothing). */
export function roomWants(requests: ResourceList): Float64Array {
  const out = new Float64Array(STRIDE);
  for (let r = 0; r < R; r++) out[r] = requests[TRACKED[r] as string] ?? 0;
  out[R] = 1;
  return out;
}

/** Whether a room vector at `offset` of `max` covers every positive want. */
export function covers(max: Float64Array, offset: number, wants: Float64Array): boolean {
  for (let r = 0; r < wants.length; r++) {
    const w = wants[r] as number;
    if (w > 0 && (max[offset + r] as number) < w) return false;
  }
  return true;
}

/** A base arrival as the tree takes it: its queue place, its node's index, what it requests. */
export interface RoomArrival {
  readonly at: number;
  readonly node: number;
  readonly requests: ResourceList;
}

export class RoomTree {
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  /** STRIDE maxima per tree node. */
  private readonly max: Float64Array;
  private used = 0;
  /** Leaves: the node order's length. */
  readonly size: number;
  /** The root of each version: version k after the first k arrivals. */
  private readonly roots: Int32Array;
  /** The arrivals' queue places, ascending (the base sorts them). */
  private readonly at: Float64Array;

  /**
   * `available`: each node's room before any arrival, in node order; `arrivals`: by queue place (node -1: off the
   * node order, a version that changes nothing); `accepts`: the nodes kept, the others never found.
   */
  constructor(
    available: readonly ResourceList[],
    arrivals: readonly RoomArrival[],
    accepts: (i: number) => boolean = () => true,
  ) {
    const n = Math.max(1, available.length);
    const kept = (i: number) => i >= 0 && i < available.length && accepts(i);
    const keep = Uint8Array.from({ length: n }, (_, i) => (kept(i) ? 1 : 0));
    const changes = arrivals.reduce((c, a) => c + (keep[a.node] === 1 ? 1 : 0), 0);
    const capacity = 2 * n + changes * (Math.ceil(Math.log2(n)) + 2);
    this.left = new Int32Array(capacity);
    this.right = new Int32Array(capacity);
    this.max = new Float64Array(capacity * STRIDE);
    this.roots = new Int32Array(arrivals.length + 1);
    this.at = Float64Array.from(arrivals, (a) => a.at);
    this.size = n;
    // the same running sum loadBefore takes, then subtracted once: the room fitsSum compares against
    const load = available.map(() => new Float64Array(R));
    const leaf = (i: number): Float64Array => {
      const out = new Float64Array(STRIDE).fill(Number.NEGATIVE_INFINITY);
      if (keep[i] !== 1) return out;
      out[R] = 1;
      const a = available[i] as ResourceList;
      const l = load[i] as Float64Array;
      for (let r = 0; r < R; r++) {
        const avail = a[TRACKED[r] as string] ?? 0;
        out[r] = lenient(avail, avail - (l[r] as number));
      }
      return out;
    };
    this.roots[0] = this.build(0, n, leaf);
    arrivals.forEach((a, k) => {
      const prev = this.roots[k] as number;
      if (keep[a.node] !== 1) {
        this.roots[k + 1] = prev;
        return;
      }
      const l = load[a.node] as Float64Array;
      for (let r = 0; r < R; r++) l[r] = (l[r] as number) + (a.requests[TRACKED[r] as string] ?? 0);
      this.roots[k + 1] = this.update(prev, 0, n, a.node, leaf(a.node));
    });
  }

  /** The version for queue place `time`: how many arrivals come before it (the set loadBefore sums). */
  version(time: number): number {
    return countBelow(this.at, time);
  }

  /** The first node index ≥ from whose room at `version` covers every tracked want, or -1. */
  next(version: number, from: number, wants: Float64Array): number {
    if (from >= this.size) return -1;
    return this.search(this.roots[version] as number, 0, this.size, Math.max(0, from), wants);
  }

  private search(at: number, lo: number, hi: number, from: number, wants: Float64Array): number {
    if (hi <= from || !covers(this.max, at * STRIDE, wants)) return -1;
    if (hi - lo === 1) return lo;
    const mid = (lo + hi) >> 1;
    const found = this.search(this.left[at] as number, lo, mid, from, wants);
    return found >= 0 ? found : this.search(this.right[at] as number, mid, hi, from, wants);
  }

  private build(lo: number, hi: number, leaf: (i: number) => Float64Array): number {
    const id = this.used++;
    if (hi - lo === 1) {
      this.max.set(leaf(lo), id * STRIDE);
      return id;
    }
    const mid = (lo + hi) >> 1;
    this.left[id] = this.build(lo, mid, leaf);
    this.right[id] = this.build(mid, hi, leaf);
    this.pull(id);
    return id;
  }

  private update(from: number, lo: number, hi: number, i: number, value: Float64Array): number {
    const id = this.used++;
    if (hi - lo === 1) {
      this.max.set(value, id * STRIDE);
      return id;
    }
    const mid = (lo + hi) >> 1;
    this.left[id] =
      i < mid ? this.update(this.left[from] as number, lo, mid, i, value) : (this.left[from] as number);
    this.right[id] =
      i < mid ? (this.right[from] as number) : this.update(this.right[from] as number, mid, hi, i, value);
    this.pull(id);
    return id;
  }

  private pull(id: number): void {
    const l = (this.left[id] as number) * STRIDE;
    const r = (this.right[id] as number) * STRIDE;
    for (let k = 0; k < STRIDE; k++)
      this.max[id * STRIDE + k] = Math.max(this.max[l + k] as number, this.max[r + k] as number);
  }
}

/** Distinct node sets kept at most per base; a pod class past them gets the tree over every node. */
const MAX_NODE_SETS = 64;

/**
 * The base's room trees, one per set of nodes a pod class does not statically reject (taints, labels: the same
 * verdict for every pod of a `fitKey`, as staticFit memoizes it), so a node walk skips those too. Built once per
 * base solution, each on first use; every candidate's follow of the pass shares them.
 */
export class BaseRoom {
  private readonly byClass = new Map<string, RoomTree>();
  private readonly bySet = new Map<string, RoomTree>();
  private readonly available: readonly ResourceList[];
  private readonly arrivals: readonly RoomArrival[];
  private all: RoomTree | undefined;

  constructor(
    private readonly existing: readonly ExistingNodeInput[],
    base: BaseSolution,
  ) {
    this.available = existing.map((e) => e.available);
    // by queue place, as the versions count them (the base sorts its arrivals so; a stable sort keeps that)
    this.arrivals = base.arrivals
      .map((a) => ({ at: a.at, node: base.nodeIndex.get(a.node) ?? -1, requests: a.pod.requests }))
      .sort((x, y) => x.at - y.at);
  }

  /** The tree over the nodes that do not statically reject the pod. */
  forPod(state: PodState): RoomTree {
    let tree = this.byClass.get(state.fitKey);
    if (tree) return tree;
    const keep = this.existing.map((e) => !staticallyRejects(e, state));
    const set = keep.map((k) => (k ? '1' : '0')).join('');
    tree = this.bySet.get(set);
    if (!tree && this.bySet.size < MAX_NODE_SETS) {
      tree = new RoomTree(this.available, this.arrivals, (i) => keep[i] === true);
      this.bySet.set(set, tree);
    }
    tree ??= this.all ??= new RoomTree(this.available, this.arrivals);
    this.byClass.set(state.fitKey, tree);
    return tree;
  }
}

const memo = new WeakMap<BaseSolution, BaseRoom>();

/** The base's room trees, made once per base solution. */
export function baseRoom(base: BaseSolution): BaseRoom {
  let room = memo.get(base);
  if (!room) memo.set(base, (room = new BaseRoom(base.input.existing, base)));
  return room;
}
