// A pod's effective requests as the scheduler and kubelet count them: containers + sidecars (restartable init
// containers), the max over ordinary init containers, plus pod overhead; limits stand in for missing requests;
// pod-level resources (Kubernetes 1.32+) replace the containers' sum for cpu, memory and hugepages; every pod also
// takes one "pods" slot (Karpenter's resources.RequestsForPods).
import type { Container, Pod } from '../model/pod.ts';
import {
  add,
  addInto,
  maxOf,
  PODS,
  type MutableResourceList,
  type ResourceList,
} from '../model/resources.ts';
import { quantityMilli } from '../model/quantity.ts';

function containerRequests(c: Container): MutableResourceList {
  const out: MutableResourceList = {};
  const limits = c.resources?.limits ?? {};
  const requests = c.resources?.requests ?? {};
  for (const [k, v] of Object.entries(limits)) out[k] = quantityMilli(v);
  for (const [k, v] of Object.entries(requests)) out[k] = quantityMilli(v);
  return out;
}

/**
 * Requests by pod spec object. Specs are never mutated once parsed (the adapters decode every object anew and
 * a warm reader carries the same objects over between catch-ups; scheduling copies what it changes), so a
 * spec's requests are parsed once, not in every snapshot every function builds of it. Weak: the entry goes
 * with its spec. The result is frozen: callers sum it into accumulators of their own, never into it.
 */
const memo = new WeakMap<Pod['spec'], ResourceList>();

export function podRequests(spec: Pod['spec']): ResourceList {
  let requests = memo.get(spec);
  if (!requests) memo.set(spec, (requests = Object.freeze(computeRequests(spec))));
  return requests;
}

function computeRequests(spec: Pod['spec']): MutableResourceList {
  const main: MutableResourceList = {};
  for (const c of spec.containers) addInto(main, containerRequests(c));
  const sidecars: MutableResourceList = {};
  let initPeak: MutableResourceList = {};
  for (const c of spec.initContainers ?? []) {
    const r = containerRequests(c);
    if (c.restartPolicy === 'Always') {
      addInto(sidecars, r);
      initPeak = maxOf(initPeak, sidecars);
    } else {
      // an ordinary init container runs alongside the sidecars started before it
      initPeak = maxOf(initPeak, add(r, sidecars));
    }
  }
  const total = withPodLevel(maxOf(add(main, sidecars), initPeak), spec.resources);
  for (const [k, v] of Object.entries(spec.overhead ?? {})) total[k] = (total[k] ?? 0) + quantityMilli(v);
  total[PODS] = (total[PODS] ?? 0) + 1000;
  return total;
}

/** component-helpers' IsSupportedPodLevelResource (v0.35): cpu, memory and hugepages-<size>. */
const podLevel = (name: string): boolean =>
  name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');

/**
 * component-helpers' PodRequests (resource/helpers.go): a pod-level request of a supported resource replaces the
 * containers' aggregate. The API server's defaulting (defaultPodRequests) comes first: an unset pod-level request
 * takes the containers' aggregate where they request the resource and it may be overcommitted (cpu, memory), and
 * the pod-level limit otherwise.
 */
function withPodLevel(total: MutableResourceList, resources: Pod['spec']['resources']): MutableResourceList {
  const requests = resources?.requests ?? {};
  const limits = resources?.limits ?? {};
  for (const [k, v] of Object.entries(limits)) {
    if (!podLevel(k) || k in requests) continue;
    if (k in total && !k.startsWith('hugepages-')) continue;
    total[k] = quantityMilli(v);
  }
  for (const [k, v] of Object.entries(requests)) if (podLevel(k)) total[k] = quantityMilli(v);
  return total;
}
