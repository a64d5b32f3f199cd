// Which domains count for a pod in a group (topology.ts). The fork: a domain counts only if a NodePool or existing
// node the pod could use supplies it. Upstream: every domain counts (tainted suppliers excluded only under
// nodeTaintsPolicy: Honor). Verdicts are shared by every pod of the same shape (a deployment's replicas), not
// recomputed per pod.
import { canUse, type Domains } from './domains.ts';
import type { PodState } from './pod-state.ts';
import { untolerated } from './taints.ts';
import type { TopologyGroup } from './topology-group.ts';
import type { TopologyOptions } from './topology-types.ts';

/** Reach verdicts by pod shape (strict requirements + tolerations), key and taint policy, then domain. */
export type ReachCache = Map<string, Map<string, boolean>>;

export function countedFor(
  universe: Domains,
  options: TopologyOptions,
  cache: ReachCache,
  pod: PodState,
  g: TopologyGroup,
): (domain: string) => boolean {
  const key = g.key;
  const honor = g.spec.honorTaints;
  if (!options.reachableDomainsOnly) {
    if (!honor) return () => true;
    return (domain) => {
      const suppliers = universe.suppliers(key, domain);
      return suppliers.length === 0 || suppliers.some((s) => !untolerated(s.taints, pod.tolerations));
    };
  }
  const shape = `${pod.shape}\u0000${key}\u0000${honor}`;
  let verdicts = cache.get(shape);
  if (!verdicts) cache.set(shape, (verdicts = new Map()));
  const known = verdicts;
  return (domain) => {
    let ok = known.get(domain);
    if (ok === undefined) {
      ok = universe
        .suppliers(key, domain)
        .some((s) => canUse(s, pod.strictRequirements, pod.tolerations, honor, options.allowUndefined));
      known.set(domain, ok);
    }
    return ok;
  };
}
