// Bound pods as a topology run counts them (topology.ts): the inverse groups their required anti-affinity imposes,
// built once per pass (Karpenter #3271: building these groups was a third of a simulation), and a group's count of
// bound pods per domain — for normal groups the pods it selects on nodes that pass its filter, for inverse groups
// the owners themselves, at their nodes' domains.
import type { Taint } from '../model/meta.ts';
import { boundIn } from './bound-index.ts';
import type { BoundInverse, BoundInverseMemo } from './inverse-relevance.ts';
import type { Requirements } from './requirement-set.ts';
import { labelRequirements } from './requirement-set.ts';
import type { Labels } from './selector.ts';
import { untolerated } from './taints.ts';
import type { GroupSpec } from './topology-group.ts';
import type { TopologyGroup } from './topology-group.ts';
import { termNamespaces, termSpec, type Filter } from './topology-specs.ts';
import type { BoundPod } from './topology-types.ts';

/** Bound-pod lists up to this long are read whole rather than through their index (bound-index.ts). */
const FEW_PODS = 64;

/** The inverse groups the bound pods impose (specs and owners), memoized in the pass's share when it has one. */
export function boundInverseGroups(
  bound: readonly BoundPod[],
  namespaces: ReadonlyMap<string, Labels>,
  memo: BoundInverseMemo | undefined,
): readonly BoundInverse[] {
  if (memo?.groups) return memo.groups;
  const bySpec = new Map<string, { spec: GroupSpec; owners: string[] }>();
  for (const b of bound) {
    for (const term of b.antiAffinity) {
      const spec = termSpec('inverse', term, termNamespaces(b, term, namespaces));
      const entry = bySpec.get(spec.hash);
      if (entry) entry.owners.push(b.key);
      else bySpec.set(spec.hash, { spec, owners: [b.key] });
    }
  }
  const groups = [...bySpec.values()];
  if (memo) memo.groups = groups;
  return groups;
}

/** Whether a node with `taints` and `requirements` passes a spread group's node filter (none: every node). */
export function filterMatches(
  f: Filter | undefined,
  taints: readonly Taint[],
  requirements: Requirements,
  allowUndefined: ReadonlySet<string>,
): boolean {
  if (!f) return true;
  if (f.tolerations && untolerated(taints, f.tolerations)) return false;
  if (!f.terms) return true;
  return f.terms.some((t) => requirements.compatible(t, allowUndefined));
}

/** The group's count of `pods` per domain. */
export function countBound(
  pods: readonly BoundPod[],
  g: TopologyGroup,
  inverse: boolean,
  filter: Filter | undefined,
  allowUndefined: ReadonlySet<string>,
): Map<string, number> {
  const out = new Map<string, number>();
  // the filter depends on the node alone, and a node carries ~24 bound pods: judged once per node
  const nodeFilter = new Map<Labels, { taints: readonly Taint[]; ok: boolean }>();
  const passes = (b: BoundPod): boolean => {
    if (!filter) return true;
    const known = nodeFilter.get(b.nodeLabels);
    if (known?.taints === b.nodeTaints) return known.ok;
    const ok = filterMatches(filter, b.nodeTaints, labelRequirements(b.nodeLabels), allowUndefined);
    nodeFilter.set(b.nodeLabels, { taints: b.nodeTaints, ok });
    return ok;
  };
  // only the group's owners (inverse) or its namespaces' pods carrying its anchor label can count: read just those;
  // a few pods (a candidate's, left out of this run) are read directly: indexing them would cost more
  const read = pods.length <= FEW_PODS ? pods : boundIn(pods, inverse ? { keys: g.owners } : g.spec);
  for (const b of read) {
    const domain = b.nodeLabels[g.key];
    if (domain === undefined) continue;
    if (inverse ? !g.owners.has(b.key) : !g.selectsPod(b.namespace, b.labels)) continue;
    if (!inverse && !passes(b)) continue;
    out.set(domain, (out.get(domain) ?? 0) + 1);
  }
  return out;
}
