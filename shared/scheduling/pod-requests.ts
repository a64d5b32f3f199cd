// A pod's effective requests as the scheduler and kubelet count them: containers + sidecars (restartable init
// containers), the max over ordinary init containers, plus pod overhead; limits stand in for missing requests;
// every pod also takes one "pods" slot (Karpenter's resources.RequestsForPods).
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
  const total = maxOf(add(main, sidecars), initPeak);
  for (const [k, v] of Object.entries(spec.overhead ?? {})) total[k] = (total[k] ?? 0) + quantityMilli(v);
  total[PODS] = (total[PODS] ?? 0) + 1000;
  return total;
}
