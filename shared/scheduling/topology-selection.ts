// Which groups select a pod, read without a topology's state (topology.ts): the key that says so once per label
// set, a template pod's ids joined with the groups only a derived run has (docs/mechanisms/delta-simulation.md), and
// the hostnames a pod's hostname groups already exclude.
import { HOSTNAME } from '../model/labels.ts';
import type { PodState } from './pod-state.ts';
import type { TopologyGroup } from './topology-group.ts';
import type { TopologyPod } from './topology-types.ts';
import type { Labels } from './selector.ts';

/** `ids` and the ids of the groups among `groups` that select the pod (a copy only when one does). */
export function withSelecting(
  ids: readonly string[],
  groups: readonly TopologyGroup[],
  pod: TopologyPod,
): readonly string[] {
  let out: string[] | undefined;
  for (const g of groups) if (g.selectsPod(pod.namespace, pod.labels)) (out ??= [...ids]).push(g.id);
  return out ?? ids;
}

const shapes = new WeakMap<Labels, string>();
const podShapes = new WeakMap<TopologyPod, string>();

/** A pod's namespace and labels as one unambiguous key (a pod's labels are never mutated once read into a pass). */
export function selectionShape(pod: TopologyPod): string {
  let shape = podShapes.get(pod);
  if (shape !== undefined) return shape;
  let text = shapes.get(pod.labels);
  if (text === undefined) {
    const l = pod.labels;
    text = JSON.stringify(
      Object.keys(l)
        .sort()
        .map((k) => [k, l[k]]),
    );
    shapes.set(pod.labels, text);
  }
  shape = JSON.stringify(pod.namespace) + text;
  podShapes.set(pod, shape);
  return shape;
}

/**
 * Hostnames the pod can certainly not join right now — a domain already holding a pod its hostname anti-affinity
 * (own, among `owned`, or inverse, among `inverse` without a node filter) excludes, or a hostname spread already at
 * maxSkew. A pre-filter only: everything it lets through is still checked in full by addRequirements.
 */
export function excludedHostnames(
  pod: PodState,
  owned: readonly TopologyGroup[],
  inverse: readonly TopologyGroup[],
  filtered: (g: TopologyGroup) => boolean,
): ReadonlySet<string> | undefined {
  let out: Set<string> | undefined;
  const exclude = (g: TopologyGroup, limit: number): void => {
    for (const [domain, count] of g.domains) if (count >= limit) (out ??= new Set()).add(domain);
  };
  for (const g of owned) {
    if (g.key !== HOSTNAME) continue;
    if (g.spec.type === 'anti-affinity') exclude(g, 1);
    else if (g.spec.type === 'spread' && g.selectsPod(pod.info.namespace, pod.info.labels))
      exclude(g, g.spec.maxSkew);
  }
  for (const g of inverse) if (g.key === HOSTNAME && !filtered(g)) exclude(g, 1);
  return out;
}
