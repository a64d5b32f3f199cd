// The follow's node state (docs/mechanisms/delta-simulation.md, point 3): the exact state of every node that
// differs from the base (a slot), the base's state of an untouched node at a queue place, and the node walks.
import { add, fits, fitsSum, type ResourceList } from '../model/resources.ts';
import { Journal } from '../scheduling/journal.ts';
import { ExistingNode, staticallyRejects, type ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PodState } from '../scheduling/pod-state.ts';
import type { Topology } from '../scheduling/topology.ts';
import type { BaseSolution } from './base-solution.ts';
import { withLoad } from './delta-window.ts';

const NO_LOAD: ResourceList = {};

/** A node whose state in the full simulation differs from the base's: its exact state, and base pods it lacks. */
export interface Slot {
  readonly name: string;
  readonly node: ExistingNode;
  readonly index: number;
  missing: number;
}

export class NodeSlots {
  private readonly slots = new Map<string, Slot>();
  /** Slots lacking a base pod, by node order: where a backlog pod may now fit earlier than in the base. */
  private readonly lighter: Slot[] = [];
  /** Per node: the base's arrival times on it and the running sum of their requests (a node walk's cheap test). */
  private readonly loads = new Map<string, { at: number[]; sums: ResourceList[] }>();
  /** Never begun: placements here are never rolled back, so it records nothing. */
  private readonly journal = new Journal();

  /** `inputs`: the full simulation's nodes before any backlog placement; pods are placed through `live`. */
  constructor(
    private readonly base: BaseSolution,
    private readonly inputs: ReadonlyMap<string, ExistingNodeInput>,
    private readonly live: Topology,
  ) {}

  get size(): number {
    return this.slots.size;
  }

  get(name: string): Slot | undefined {
    return this.slots.get(name);
  }

  all(): IterableIterator<Slot> {
    return this.slots.values();
  }

  index(node: string): number {
    return this.base.nodeIndex.get(node) ?? Number.POSITIVE_INFINITY;
  }

  /** The node as the full simulation has it at `time`: the slot, or the base's state then (made a slot). */
  slot(name: string, time: number): Slot | undefined {
    const known = this.slots.get(name);
    if (known) return known;
    const input = this.baseInput(name, time);
    if (!input) return undefined;
    const s: Slot = { name, node: new ExistingNode(input), index: this.index(name), missing: 0 };
    this.slots.set(name, s);
    return s;
  }

  /** An untouched node's state at `time`: the full simulation's node plus the base arrivals before then. */
  private baseInput(name: string, time: number): ExistingNodeInput | undefined {
    const input = this.inputs.get(name);
    if (!input) return undefined;
    const pods = (this.base.onNode.get(name) ?? []).filter((a) => a.at < time).map((a) => a.pod);
    return pods.length ? withLoad(input, pods) : input;
  }

  /** What the base's arrivals on an untouched node request before `time`. */
  private loadBefore(name: string, time: number): ResourceList {
    let l = this.loads.get(name);
    if (!l) {
      const at: number[] = [];
      const sums: ResourceList[] = [];
      for (const a of this.base.onNode.get(name) ?? []) {
        at.push(a.at);
        sums.push(sums.length ? add(sums[sums.length - 1] as ResourceList, a.pod.requests) : a.pod.requests);
      }
      this.loads.set(name, (l = { at, sums }));
    }
    let lo = 0;
    let hi = l.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((l.at[mid] as number) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? NO_LOAD : (l.sums[lo - 1] as ResourceList);
  }

  /** The slot lacks one more base pod. */
  lose(s: Slot): void {
    if (s.missing++ === 0) insertByIndex(this.lighter, s);
  }

  /** Places the pod on the slot through the live topology, if the node takes it. */
  place(s: Slot, state: PodState): boolean {
    return s.node.add(state, this.live, this.journal) === undefined;
  }

  /** The first slot lacking a base pod before node order `below` that takes the pod (placed there). */
  firstLighter(state: PodState, below: number): Slot | undefined {
    for (const s of this.lighter) {
      if (s.index >= below) break;
      if (s.node.fits(state.info.requests) && this.place(s, state)) return s;
    }
    return undefined;
  }

  /**
   * The first node after `after` in the node order that takes the pod (placed there, through the live topology),
   * as the scheduler walks on. A node it only tries becomes a slot when it takes the pod.
   */
  scanAfter(state: PodState, after: number, time: number): Slot | undefined {
    const existing = this.base.input.existing;
    const want = state.info.requests;
    for (let i = after + 1; i < existing.length; i++) {
      const name = (existing[i] as ExistingNodeInput).name;
      const s = this.slots.get(name);
      if (s) {
        if (s.node.fits(want) && this.place(s, state)) return s;
        continue;
      }
      const input = this.inputs.get(name);
      // a node too small before any backlog placement only filled up since
      if (!input || !fits(want, input.available) || staticallyRejects(input, state)) continue;
      if (!fitsSum(this.loadBefore(name, time), want, input.available)) continue;
      const now = this.baseInput(name, time) as ExistingNodeInput;
      const node = new ExistingNode(now);
      if (node.add(state, this.live, this.journal) !== undefined) continue;
      const made: Slot = { name, node, index: this.index(name), missing: 0 };
      this.slots.set(name, made);
      return made;
    }
    return undefined;
  }
}

function insertByIndex(list: Slot[], s: Slot): void {
  const i = list.findIndex((l) => l.index > s.index);
  list.splice(i < 0 ? list.length : i, 0, s);
}
