// The follow's topology bookkeeping (docs/mechanisms/delta-simulation.md, point 3): per group and domain the full
// simulation's count minus the base's at the current queue place, the groups that differ for good, and whether a
// pod's topology sees exactly the base's counts.
import { HOSTNAME } from '../model/labels.ts';
import type { PodState } from '../scheduling/pod-state.ts';
import type { Labels } from '../scheduling/selector.ts';
import type { Topology } from '../scheduling/topology.ts';
import type { BaseSolution } from './base-solution.ts';

export class CountDiff {
  /** Per group: full simulation's count minus the base's, by domain, where they differ (now). */
  private readonly diff = new Map<string, Map<string, number>>();
  /** Groups whose domains or reach differ from the base's for good (not a count a later placement evens out). */
  private readonly structural = new Set<string>();
  private readonly keyOf = new Map<string, string>();
  /** Groups of the full simulation the base does not have (the candidate's pods own them): no base count is theirs. */
  private readonly unknown = new Set<string>();

  /** Observes `live`'s counts from here on; the caller clears `live.onCount` when the follow ends. */
  constructor(
    private readonly base: BaseSolution,
    private readonly live: Topology,
    private readonly candidate: Labels,
  ) {
    live.onCount = (_pod, group, domain, delta) => this.bump(group, domain, delta);
    this.initialDiff();
  }

  // Before any placement the runs differ only where the candidate was: its bound pods' counts at its own
  // domains, and those domains themselves if it was their last supplier. Its hostname is no node of the full
  // simulation, so no pod can be placed there and its count decides nothing (docs/mechanisms/delta-simulation.md).
  private initialDiff(): void {
    const { live, base, candidate } = this;
    for (const [id, key] of live.groupKeys()) {
      this.keyOf.set(id, key);
      const before = base.initialCounts(id);
      if (!before) {
        this.structural.add(id);
        this.unknown.add(id);
        continue;
      }
      const v = candidate[key];
      if (key === HOSTNAME || v === undefined) continue;
      const full = live.countsOf(id)?.get(v);
      const was = before.get(v);
      if ((full === undefined) !== (was === undefined)) this.structural.add(id);
      else if (full !== was) this.bump(id, v, (full as number) - (was as number));
    }
  }

  private bump(group: string, domain: string, delta: number): void {
    let m = this.diff.get(group);
    if (!m) this.diff.set(group, (m = new Map()));
    const n = (m.get(domain) ?? 0) + delta;
    if (n === 0) m.delete(domain);
    else m.set(domain, n);
    if (m.size === 0) this.diff.delete(group);
  }

  /** Whether the pod's topology sees exactly what it saw in the base at this queue place. */
  clean(s: PodState): boolean {
    const { live, candidate } = this;
    for (const id of live.deciding(s.key)) {
      if (this.structural.has(id) || this.diff.has(id)) return false;
      const key = this.keyOf.get(id) as string;
      const v = candidate[key];
      // the fork's reach rule: the candidate may have been the domain's only supplier this pod could use
      if (key !== HOSTNAME && v !== undefined && !this.sameReach(s, id, v)) return false;
    }
    return true;
  }

  /** Per pod shape and group: whether the candidate's domain counts alike in both runs (a shape decides reach). */
  private readonly reach = new Map<string, Map<string, boolean>>();

  private sameReach(s: PodState, id: string, domain: string): boolean {
    let byGroup = this.reach.get(s.shape);
    if (!byGroup) this.reach.set(s.shape, (byGroup = new Map()));
    let same = byGroup.get(id);
    if (same === undefined)
      byGroup.set(id, (same = this.live.counts(s, id, domain) === this.base.topology.counts(s, id, domain)));
    return same;
  }

  /** The pod stays where the base put it, off the nodes the follow holds: its base counts stand. */
  keep(s: PodState): void {
    for (const c of this.base.countsOf(s.key)) this.live.addCount(c.group, c.domain, c.delta);
  }

  /** A group the base does not have counts the pod: its base counts miss that group, only placing it counts it. */
  countedUnknown(s: PodState): boolean {
    return this.unknown.size > 0 && this.live.counting(s.key).some((id) => this.unknown.has(id));
  }

  /** The pod was placed here through the live topology (which counted it): its base counts are not the run's. */
  unkeep(s: PodState): void {
    for (const c of this.base.countsOf(s.key)) this.bump(c.group, c.domain, -c.delta);
  }

  /** A topology group decides or counts the pod: where it goes changes what others see, or depends on counts. */
  coupled(s: PodState): boolean {
    return this.live.deciding(s.key).length > 0 || this.live.counting(s.key).length > 0;
  }
}
