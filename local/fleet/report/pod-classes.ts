// Which node options each running pod could use, for the fleet's lower bound (lower-bound.ts): an option is one
// NodePool's instance type, priced at its cheapest offering the pool allows, with the allocatable left once the
// pool's DaemonSets are on it. A pod may use an option when it tolerates the pool's taints, its strict node
// requirements (nodeSelector, the required node affinity) meet the pool's and the type's, and it fits alone.
import { podKey } from '../../../shared/model/pod.ts';
import {
  addInto,
  EMPTY,
  fitsSum,
  subtractWithin,
  type MutableResourceList,
  type ResourceList,
} from '../../../shared/model/resources.ts';
import { cheapestOffering, offeringCompatible } from '../../../shared/scheduling/instance-type.ts';
import { PodState } from '../../../shared/scheduling/pod-state.ts';
import { untolerated } from '../../../shared/scheduling/taints.ts';
import type { NodeClaimTemplate } from '../../../shared/scheduling/template.ts';
import type { PassView } from '../../../shared/state/scheduling-view.ts';

export interface NodeOption {
  /** `<pool>/<type>` */
  readonly id: string;
  readonly price: number;
  /** Allocatable less the pool's DaemonSet overhead on this type. */
  readonly room: ResourceList;
}

export interface PodClass {
  /** How many pods share this option set. */
  readonly pods: number;
  /** Their summed requests (milli-units, shared/model/resources.ts). */
  readonly demand: ResourceList;
  /** Indices into the options list. */
  readonly options: readonly number[];
}

export interface PodClasses {
  readonly options: readonly NodeOption[];
  readonly classes: readonly PodClass[];
  /** Pods no option admits (they could not run on a fresh fleet either): left out of the bound. */
  readonly unserved: readonly string[];
}

/** Every (pool, type) the pool may launch, priced and with room left after its DaemonSets. */
function nodeOptions(templates: readonly NodeClaimTemplate[]): NodeOption[] {
  const out: NodeOption[] = [];
  for (const t of templates)
    for (const it of t.instanceTypes) {
      const price = cheapestOffering(it, t.requirements)?.price;
      if (price === undefined) continue;
      const room = subtractWithin(it.allocatable, t.daemonOverhead.get(it.name) ?? EMPTY);
      out.push({ id: `${t.nodePool}/${it.name}`, price, room });
    }
  return out;
}

/** The options one pod may use: the scheduler's own checks for a fresh claim of the pool (new-claim.ts). */
function admissible(
  pod: PodState,
  requests: ResourceList,
  view: PassView,
  index: ReadonlyMap<string, number>,
): number[] {
  const out: number[] = [];
  for (const t of view.templates) {
    if (untolerated(t.taints, pod.tolerations)) continue;
    if (t.requirements.incompatibility(pod.strictRequirements, view.allowUndefined)) continue;
    const reqs = t.requirements.copy().addAll(pod.strictRequirements);
    for (const it of t.instanceTypes) {
      if (reqs.conflict(it.requirements) !== undefined) continue;
      if (!it.offerings.some((o) => o.available && offeringCompatible(o, reqs))) continue;
      if (!fitsSum(requests, t.daemonOverhead.get(it.name) ?? EMPTY, it.allocatable)) continue;
      const i = index.get(`${t.nodePool}/${it.name}`);
      if (i !== undefined) out.push(i);
    }
  }
  return out;
}

/** Groups the view's pending pods (the fleet's running pods, unbound) by the options they may use. */
export function podClasses(view: PassView): PodClasses {
  const options = nodeOptions(view.templates);
  const index = new Map(options.map((o, i) => [o.id, i]));
  const byKey = new Map<string, { pods: number; demand: MutableResourceList; options: number[] }>();
  const unserved: string[] = [];
  for (const pod of view.snapshot.objects.pods) {
    if (pod.spec.nodeName) continue;
    const info = view.pendingPod(pod);
    const opts = admissible(new PodState(info, false), info.requests, view, index);
    if (opts.length === 0) {
      unserved.push(podKey(pod));
      continue;
    }
    const key = opts.join(',');
    const c = byKey.get(key) ?? { pods: 0, demand: {}, options: opts };
    c.pods++;
    addInto(c.demand, info.requests);
    byKey.set(key, c);
  }
  return { options, classes: [...byKey.values()], unserved };
}
