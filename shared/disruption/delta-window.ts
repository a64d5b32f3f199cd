// The delta's node state (docs/mechanisms/delta-simulation.md, points 1-2): the base as it stood when its first
// moved pod is decided, and whether every moved pod's first attempt landed on an existing node. What happens in
// the window after that first pod is followed in delta-follow.ts.
import { addInto, subtract, type MutableResourceList } from '../model/resources.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PendingPod } from '../scheduling/pod-state.ts';
import type { SchedulingResult } from '../scheduling/scheduler.ts';
import type { Arrival } from './base-solution.ts';

/** The base's existing-node inputs as they stood at `time`: backlog pods placed before it take their share. */
export function loadedAt(
  existing: readonly ExistingNodeInput[],
  arrivals: readonly Arrival[],
  time: number,
  candidate: string,
): ExistingNodeInput[] {
  const load = new Map<string, PendingPod[]>();
  for (const a of arrivals) {
    if (a.at >= time) break;
    if (a.node === candidate) continue;
    const l = load.get(a.node);
    if (l) l.push(a.pod);
    else load.set(a.node, [a.pod]);
  }
  return existing.map((e) => {
    const l = load.get(e.name);
    return l ? withLoad(e, l) : e;
  });
}

/** A node input with `pods` placed on it: their requests, host ports and attachable volumes taken. */
export function withLoad(e: ExistingNodeInput, pods: readonly PendingPod[]): ExistingNodeInput {
  const requests: MutableResourceList = {};
  const volumeSlots = new Map(e.volumeSlots);
  for (const p of pods) {
    addInto(requests, p.requests);
    for (const d of p.volumeDrivers) {
      const left = volumeSlots.get(d);
      if (left !== undefined) volumeSlots.set(d, left - 1);
    }
  }
  return {
    ...e,
    available: subtract(e.available, requests),
    hostPorts: [...e.hostPorts, ...pods.flatMap((p) => p.hostPorts)],
    volumeSlots,
  };
}

/** The existing node each moved pod's first attempt landed on, or undefined if one did not land on one. */
export function landedOnNodes(
  result: SchedulingResult,
  moved: readonly PendingPod[],
): Map<string, PendingPod[]> | undefined {
  const byNode = new Map<string, PendingPod[]>();
  for (const pod of moved) {
    const placed = result.placements.get(pod.key);
    if (placed?.kind !== 'existing' || result.requeued.has(pod.key)) return undefined;
    const list = byNode.get(placed.node) ?? [];
    list.push(pod);
    byNode.set(placed.node, list);
  }
  return byNode;
}

export function lowerBound(arrivals: readonly Arrival[], time: number): number {
  let lo = 0;
  let hi = arrivals.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((arrivals[mid] as Arrival).at < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
