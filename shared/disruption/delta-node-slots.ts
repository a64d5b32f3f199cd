// The follow's node state (docs/mechanisms/delta-simulation.md, point 3): the exact state of every node that
// differs from the base (a slot), the base's state of an untouched node at a queue place, and the node walks.
import { add, fits, fitsSum, type ResourceList } from '../model/resources.ts';
import { Journal } from '../scheduling/journal.ts';
import { ExistingNode, type ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PodState } from '../scheduling/pod-state.ts';
import { labelRequirements, type Requirements } from '../scheduling/requirement-set.ts';
import { LABELS, staticFit, TAINT } from '../scheduling/static-fit.ts';
import type { Topology } from '../scheduling/topology.ts';
import type { BaseSolution } from './base-solution.ts';
import { SlotRoom } from './delta-room-slots.ts';
import { baseRoom, countBelow, roomWants, type BaseRoom } from './delta-room.ts';
import { narrowedBefore, narrowing, withLoad, type Narrowing } from './delta-window.ts';

const NO_LOAD: ResourceList = {};

/** A node whose state in the full simulation differs from the base's: its exact state, and base pods it lacks. */
export interface Slot {
  readonly name: string;
  readonly node: ExistingNode;
  readonly index: number;
  missing: number;
  /** It may take a pod the base's node turned away: it lacks a base pod, or a placement widened it (place). */
  lighter: boolean;
}

export class NodeSlots {
  private readonly slots = new Map<string, Slot>();
  /** Every slot in the node order, by node index, with its exact free room (kept by the node's onFreeChanged). */
  private readonly slotRoom: SlotRoom;
  private readonly slotAt: (Slot | undefined)[] = [];
  /**
   * Slots lacking a base pod, where a backlog pod may now fit earlier than in the base: by node index with their
   * free room, and, after those, any off the node order.
   */
  private lighterRoom: SlotRoom | undefined;
  private readonly lighterOff: Slot[] = [];
  /** The base's room over queue time, when this follow's nodes are the base's (undefined: walk every node). */
  private room: BaseRoom | undefined | null = null;
  /** Per node: the base's arrival times on it and the running sum of their requests (a node walk's cheap test). */
  private readonly loads: Map<string, { at: number[]; sums: ResourceList[] }>;
  /** Never begun: placements here are never rolled back, so it records nothing. */
  private readonly journal = new Journal();
  /** What the base's arrivals narrowed on keys their nodes have no label for (delta-window.ts). */
  private readonly narrowed: Narrowing;

  /** `inputs`: the full simulation's nodes before any backlog placement; pods are placed through `live`. */
  constructor(
    private readonly base: BaseSolution,
    private readonly inputs: ReadonlyMap<string, ExistingNodeInput>,
    private readonly live: Topology,
  ) {
    this.slotRoom = new SlotRoom(base.input.existing.length);
    this.loads = baseLoads(base);
    this.narrowed = narrowing(base);
    // narrowed by an arrival's topology, which no replay gives: exact from the start, their base pods placed by add
    for (const name of this.narrowed.pinned) if (inputs.has(name)) this.slot(name, 0);
  }

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
    const node = this.baseNode(name, time);
    if (!node) return undefined;
    return this.made({ name, node, index: this.index(name), missing: 0, lighter: false });
  }

  /**
   * An untouched node as the base had it at `time`: its arrivals' load, and what they narrowed on keys it has no
   * label for (on the others narrowing changes nothing: delta-window.ts).
   */
  private baseNode(name: string, time: number): ExistingNode | undefined {
    const input = this.baseInput(name, time);
    if (!input) return undefined;
    const node = new ExistingNode(input);
    const narrowed = narrowedBefore(this.narrowed, name, time);
    if (narrowed) node.requirements = labelRequirements(input.labels).copy().addAll(narrowed);
    return node;
  }

  private made(s: Slot): Slot {
    this.slots.set(s.name, s);
    if (!(s.index < this.base.input.existing.length)) return s;
    const { available } = s.node.input;
    this.slotRoom.set(s.index, available, s.node.free());
    this.slotAt[s.index] = s;
    s.node.onFreeChanged = (free) => {
      this.slotRoom.set(s.index, available, free);
      if (s.lighter) this.lighterRoom?.set(s.index, available, free);
    };
    return s;
  }

  /** An untouched node's state at `time`: the full simulation's node plus the base arrivals before then. */
  private baseInput(name: string, time: number): ExistingNodeInput | undefined {
    const input = this.inputs.get(name);
    if (!input) return undefined;
    const pods = (this.base.onNode.get(name) ?? []).filter((a) => a.at < time).map((a) => a.pod);
    return pods.length ? withLoad(input, pods) : input;
  }

  /** What the base's arrivals on an untouched node request before `time` (sums kept per base, for the pass). */
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
    const lo = countBelow(l.at, time);
    return lo === 0 ? NO_LOAD : (l.sums[lo - 1] as ResourceList);
  }

  /** The slot lacks one more base pod. */
  lose(s: Slot): void {
    s.missing++;
    this.lighten(s);
  }

  /** From now on firstLighter tries the slot. */
  private lighten(s: Slot): void {
    if (s.lighter) return;
    s.lighter = true;
    const n = this.base.input.existing.length;
    if (!(s.index < n)) {
      insertByIndex(this.lighterOff, s);
      return;
    }
    (this.lighterRoom ??= new SlotRoom(n)).set(s.index, s.node.input.available, s.node.free());
  }

  /**
   * Whether the slot passes the checks its add makes first: the resources, and the static verdict (memoized per
   * pass on the base's input of the node, the same taints and labels). Labels decide alone only while nothing
   * narrowed the node's requirements (a placement, or the base's arrivals: baseNode), as in ExistingNode.add;
   * once narrowed, a conflict on a key the node has a label for still turns the pod away (see labelConflict).
   */
  private mayTake(s: Slot, state: PodState): boolean {
    if (!s.node.fits(state.info.requests)) return false;
    const input = this.inputs.get(s.name) ?? s.node.input;
    const labels = labelRequirements(input.labels);
    const fit = staticFit(input, labels, state);
    if (fit & TAINT) return false;
    return (fit & LABELS) === 0 || (s.node.requirements !== labels && !labelConflict(input, state));
  }

  /** Places the pod on the slot through the live topology, if the node takes it. */
  place(s: Slot, state: PodState): boolean {
    const before = s.node.requirements;
    if (s.node.add(state, this.live, this.journal) !== undefined) return false;
    this.widened(s, before);
    return true;
  }

  /**
   * A placement that narrowed a key the node has no label for (the pod's `NotIn`, an anti-affinity's blocked
   * domains) may let in a pod the base's node turned away there (a later `In`): not only load, so the node is
   * tried as a lighter one from now on, as if it lacked a base pod (docs/mechanisms/delta-simulation.md, point 4).
   */
  private widened(s: Slot, before: Requirements): void {
    if (s.lighter) return;
    const labels = s.node.input.labels;
    if (s.node.requirements.changedSince(before).some((k) => !Object.hasOwn(labels, k))) this.lighten(s);
  }

  /** The first lighter slot (lacking a base pod, or widened) before node order `below` that takes the pod. */
  firstLighter(state: PodState, below: number): Slot | undefined {
    const want = state.info.requests;
    const room = this.lighterRoom;
    if (room) {
      const wants = roomWants(want);
      for (let j = room.next(0, below, wants); j >= 0; j = room.next(j + 1, below, wants)) {
        const s = this.slotAt[j];
        if (s && this.mayTake(s, state) && this.place(s, state)) return s;
      }
    }
    for (const s of this.lighterOff) {
      if (s.index >= below) break;
      if (this.mayTake(s, state) && this.place(s, state)) return s;
    }
    return undefined;
  }

  /**
   * The first node after `after` in the node order that takes the pod (placed there, through the live topology),
   * as the scheduler walks on. A node it only tries becomes a slot when it takes the pod. The slots are checked
   * against their own state; of the other nodes, only those the base's room at `time` could take and the pod's
   * static verdict admits (delta-room.ts): the nodes every other would be rejected by the checks below anyway.
   */
  scanAfter(state: PodState, after: number, time: number): Slot | undefined {
    // a node the base narrowed may take a pod requiring a narrowed key that its labels turn away: the trees,
    // built on the labels' verdicts, would skip it
    const tree = this.requiresNarrowed(state) ? undefined : this.baseRoom()?.forPod(state);
    if (!tree) return this.walk(state, after, time);
    const n = this.base.input.existing.length;
    const want = state.info.requests;
    const wants = roomWants(want);
    const version = tree.version(time);
    let si = this.slotRoom.next(after + 1, n, wants);
    let ti = tree.next(version, after + 1, wants);
    for (;;) {
      if (ti < 0 && si < 0) return undefined;
      if (ti < 0 || (si >= 0 && si <= ti)) {
        const s = this.slotAt[si] as Slot;
        if (si === ti) ti = tree.next(version, ti + 1, wants);
        si = this.slotRoom.next(si + 1, n, wants);
        if (this.mayTake(s, state) && this.place(s, state)) return s;
        continue;
      }
      const i = ti;
      ti = tree.next(version, i + 1, wants);
      const made = this.tryUntouched(i, state, time);
      if (made) return made;
    }
  }

  /** The base's room trees, if every node of this follow is the base's own input (they are built from those). */
  private baseRoom(): BaseRoom | undefined {
    if (this.room !== null) return this.room;
    const existing = this.base.input.existing;
    let same = true;
    for (const [name, input] of this.inputs) {
      const i = this.base.nodeIndex.get(name);
      if (i === undefined || !sameInput(existing[i], input)) same = false;
    }
    this.room = same ? baseRoom(this.base) : undefined;
    return this.room;
  }

  /** Whether the pod requires (`In`, `Exists`, `Gt`, `Lt`) a key some base arrival narrowed on a node lacking it. */
  private requiresNarrowed(state: PodState): boolean {
    const keys = this.narrowed.keys;
    if (keys.size === 0) return false;
    for (const r of state.requirements.values()) {
      const op = r.operator();
      if (keys.has(r.key) && op !== 'NotIn' && op !== 'DoesNotExist') return true;
    }
    return false;
  }

  /** scanAfter over every node in turn: the same walk, without the room tree. */
  private walk(state: PodState, after: number, time: number): Slot | undefined {
    const existing = this.base.input.existing;
    for (let i = after + 1; i < existing.length; i++) {
      const s = this.slots.get((existing[i] as ExistingNodeInput).name);
      if (s) {
        if (this.mayTake(s, state) && this.place(s, state)) return s;
        continue;
      }
      const made = this.tryUntouched(i, state, time);
      if (made) return made;
    }
    return undefined;
  }

  /** An untouched node `i` of the node order, tried as the base had it at `time`: a slot if it takes the pod. */
  private tryUntouched(i: number, state: PodState, time: number): Slot | undefined {
    const name = (this.base.input.existing[i] as ExistingNodeInput).name;
    if (this.slots.has(name)) return undefined;
    const want = state.info.requests;
    const input = this.inputs.get(name);
    // a node too small before any backlog placement only filled up since
    if (!input || !fits(want, input.available)) return undefined;
    const fit = staticFit(input, labelRequirements(input.labels), state);
    // the labels' verdict holds until the base's arrivals narrowed the node (baseNode)
    if (fit & TAINT || (fit & LABELS && !narrowedBefore(this.narrowed, name, time))) return undefined;
    if (!fitsSum(this.loadBefore(name, time), want, input.available)) return undefined;
    const node = this.baseNode(name, time) as ExistingNode;
    const before = node.requirements;
    if (node.add(state, this.live, this.journal) !== undefined) return undefined;
    const s = this.made({ name, node, index: this.index(name), missing: 0, lighter: false });
    this.widened(s, before);
    return s;
  }
}

/**
 * The base's input, or the same node guarded for a consolidation (destination-guard.ts): the room trees still
 * hold for it, since they only propose nodes and the node's add refuses what the guard keeps off it.
 */
function sameInput(base: ExistingNodeInput | undefined, input: ExistingNodeInput): boolean {
  if (base === input) return true;
  return (
    base !== undefined &&
    input.refuses !== undefined &&
    base.name === input.name &&
    base.available === input.available &&
    base.labels === input.labels &&
    base.taints === input.taints &&
    base.hostPorts === input.hostPorts &&
    base.volumeLimits === input.volumeLimits &&
    base.inFlight === input.inFlight
  );
}

const conflicts = new WeakMap<ExistingNodeInput, Map<string, boolean>>();

/**
 * Whether the pod's requirements conflict with the node's own labels on a key the node has. Narrowing keeps such
 * a key's requirement `In [its value]` (a placement admitted only pods that intersect it), so the node's narrowed
 * requirements conflict there too and its add refuses the pod. Memoized per node input and pod fit key (the
 * requirements' fingerprint), like staticFit.
 */
function labelConflict(input: ExistingNodeInput, state: PodState): boolean {
  let byPod = conflicts.get(input);
  if (!byPod) conflicts.set(input, (byPod = new Map()));
  let known = byPod.get(state.fitKey);
  if (known === undefined) {
    known = labelRequirements(input.labels).conflict(state.requirements) !== undefined;
    byPod.set(state.fitKey, known);
  }
  return known;
}

const loadsMemo = new WeakMap<BaseSolution, Map<string, { at: number[]; sums: ResourceList[] }>>();

function baseLoads(base: BaseSolution): Map<string, { at: number[]; sums: ResourceList[] }> {
  let loads = loadsMemo.get(base);
  if (!loads) loadsMemo.set(base, (loads = new Map()));
  return loads;
}

function insertByIndex(list: Slot[], s: Slot): void {
  const i = firstAfter(list, s.index);
  list.splice(i, 0, s);
}

/** The position of the first slot whose node index is above `index` (the list is by node index). */
function firstAfter(list: readonly Slot[], index: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as Slot).index <= index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
