// Pending pods no NodePool can ever take (docs/mechanisms/verdict-exclusion.md): the provisioner records a TTL-bounded
// verdict for a pod every NodePool rejects on taints, requirements or instance types, and disruption
// simulations leave such pods out, since they only cost time. When no verdicts come through the port, the
// pass derives them itself: each distinct scheduling shape is solved once, alone, against no existing node.
import { podKey, type Pod } from '../model/pod.ts';
import { solve } from '../scheduling/scheduler.ts';
import type { PassView } from '../state/scheduling-view.ts';
import { gangName } from '../state/pods.ts';
import type { SchedulingOptions } from '../scheduling/scheduler.ts';

/** Pods whose placement depends on other pods (gangs, affinity, spread) are never judged alone. */
function judgedAlone(p: Pod): boolean {
  const a = p.spec.affinity;
  return (
    gangName(p) === undefined &&
    !a?.podAffinity &&
    !a?.podAntiAffinity &&
    (p.spec.topologySpreadConstraints ?? []).length === 0
  );
}

/** The fields that decide whether any NodePool could take the pod, as one key. */
function shapeOf(p: Pod, view: PassView): string {
  const s = p.spec;
  return JSON.stringify([
    view.pendingPod(p).requests,
    s.nodeSelector ?? null,
    s.affinity?.nodeAffinity ?? null,
    s.tolerations ?? null,
  ]);
}

/**
 * podKeys of backlog pods that every NodePool rejects, whatever the cluster holds. One solve over one
 * representative per shape, with no existing node and no limits: a pod without topology or gang ties that
 * could open a claim of its own still can with others around, so "not placed" there means "no pool fits".
 */
export function incompatibleWithEveryPool(
  view: PassView,
  backlog: readonly Pod[],
  options: SchedulingOptions,
): Set<string> {
  const allNodes = new Set([...view.snapshot.nodes, ...view.snapshot.inFlight].map((n) => n.name));
  const shapeOfPod = new Map<Pod, string>();
  const representatives = new Map<string, Pod>();
  for (const p of backlog) {
    if (!judgedAlone(p)) continue;
    const shape = shapeOf(p, view);
    shapeOfPod.set(p, shape);
    if (!representatives.has(shape)) representatives.set(shape, p);
  }
  const pending = [...representatives.values()].map((p) => view.pendingPod(p));
  const result = solve({ ...view.input(pending, allNodes), remaining: new Map() }, options);
  const rejected = new Set<string>();
  for (const [shape, p] of representatives) if (!result.placements.has(podKey(p))) rejected.add(shape);
  const out = new Set<string>();
  for (const [p, shape] of shapeOfPod) if (rejected.has(shape)) out.add(podKey(p));
  return out;
}
