// The delta's node state and the checks that make it the full simulation's (docs/mechanisms/delta-simulation.md,
// points 1-3). The delta starts from the base as it stood when its first moved pod is decided. Between that and
// its last pod the full simulation also places backlog pods; one that lands on a node no moved pod took changes
// nothing a moved pod decides (more load only turns more nodes down), and on a node a moved pod took it changes
// nothing as long as everything placed there still fits together.
import { add, addInto, fits, subtract, type MutableResourceList } from '../model/resources.ts';
import { hostPortConflict, type HostPort } from '../scheduling/host-ports.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PendingPod } from '../scheduling/pod-state.ts';
import type { SchedulingResult } from '../scheduling/scheduler.ts';
import type { Arrival } from './base-solution.ts';

interface Load {
  readonly requests: MutableResourceList;
  readonly ports: HostPort[];
  readonly drivers: string[];
}

const emptyLoad = (): Load => ({ requests: {}, ports: [], drivers: [] });

function addPod(l: Load, pod: PendingPod): void {
  addInto(l.requests, pod.requests);
  l.ports.push(...pod.hostPorts);
  l.drivers.push(...pod.volumeDrivers);
}

/** The base's existing-node inputs as they stood at `time`: backlog pods placed before it take their share. */
export function loadedAt(
  existing: readonly ExistingNodeInput[],
  arrivals: readonly Arrival[],
  time: number,
  candidate: string,
): ExistingNodeInput[] {
  const load = new Map<string, Load>();
  for (const a of arrivals) {
    if (a.at >= time) break;
    if (a.node === candidate) continue;
    let l = load.get(a.node);
    if (!l) load.set(a.node, (l = emptyLoad()));
    addPod(l, a.pod);
  }
  return existing.map((e) => {
    const l = load.get(e.name);
    if (!l) return e;
    const volumeSlots = new Map(e.volumeSlots);
    for (const d of l.drivers) {
      const left = volumeSlots.get(d);
      if (left !== undefined) volumeSlots.set(d, left - 1);
    }
    return {
      ...e,
      available: subtract(e.available, l.requests),
      hostPorts: [...e.hostPorts, ...l.ports],
      volumeSlots,
    };
  });
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

/**
 * Whether a backlog pod placed in [since, until) on a node the delta put moved pods on no longer fits there
 * together with them (resources, host ports, attachable volumes): then the full simulation would diverge.
 */
export function windowConflict(
  arrivals: readonly Arrival[],
  window: { readonly since: number; readonly until: number; readonly candidate: string },
  inputs: ReadonlyMap<string, ExistingNodeInput>,
  landed: ReadonlyMap<string, readonly PendingPod[]>,
  moved: ReadonlySet<string>,
): boolean {
  const extra = new Map<string, Load>();
  for (let i = lowerBound(arrivals, window.since); i < arrivals.length; i++) {
    const a = arrivals[i] as Arrival;
    if (a.at >= window.until) break;
    if (a.node === window.candidate || moved.has(a.pod.key) || !landed.has(a.node)) continue;
    let l = extra.get(a.node);
    if (!l) extra.set(a.node, (l = emptyLoad()));
    addPod(l, a.pod);
  }
  for (const [node, l] of extra) {
    const input = inputs.get(node);
    const pods = landed.get(node) ?? [];
    if (!input) return true;
    const together = add(l.requests, ...pods.map((p) => p.requests));
    if (!fits(together, input.available)) return true;
    if (
      hostPortConflict(
        l.ports,
        pods.flatMap((p) => p.hostPorts),
      )
    )
      return true;
    for (const d of new Set([...l.drivers, ...pods.flatMap((p) => p.volumeDrivers)])) {
      const left = input.volumeSlots.get(d);
      const want = [...l.drivers, ...pods.flatMap((p) => p.volumeDrivers)].filter((x) => x === d).length;
      if (left !== undefined && want > left) return true;
    }
  }
  return false;
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
