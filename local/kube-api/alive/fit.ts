// The binder's own fit test (deliberately not kraftsman's scheduler): readiness, taints, nodeSelector,
// required node affinity, and requests against what the node has left.
import { quantityMilli } from '../../../shared/model/quantity.ts';
import type { KubeObject } from '../store.ts';

export type Free = Record<string, number>;
interface Container {
  resources?: { requests?: Record<string, string | number> };
}
interface Expr {
  key: string;
  operator: string;
  values?: string[];
}
interface PodSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  containers?: Container[];
  initContainers?: Container[];
  overhead?: Record<string, string | number>;
  tolerations?: { key?: string; operator?: string; value?: string; effect?: string }[];
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: {
        nodeSelectorTerms?: { matchExpressions?: Expr[] }[];
      };
    };
  };
}

const specOf = (pod: KubeObject): PodSpec => (pod.spec ?? {}) as PodSpec;
const labelsOf = (o: KubeObject): Record<string, string> =>
  (o.metadata.labels ?? {}) as Record<string, string>;

/**
 * The store replaces an object on every write and never changes a stored one in place, so a pod's requests
 * are parsed once per version: the binder tries each pending pod against every node, every minute.
 */
const parsed = new WeakMap<KubeObject, Readonly<Free>>();

/** Milli-units per resource: sum of containers, at least the largest init container, plus overhead, plus one pod. */
export function requestsOf(pod: KubeObject): Readonly<Free> {
  let out = parsed.get(pod);
  if (!out) parsed.set(pod, (out = Object.freeze(parseRequests(pod))));
  return out;
}

function parseRequests(pod: KubeObject): Free {
  const spec = specOf(pod);
  const sum: Free = { pods: 1000 };
  const add = (into: Free, list: Record<string, string | number> | undefined): Free => {
    for (const [k, v] of Object.entries(list ?? {})) into[k] = (into[k] ?? 0) + quantityMilli(v);
    return into;
  };
  for (const c of spec.containers ?? []) add(sum, c.resources?.requests);
  for (const c of spec.initContainers ?? [])
    for (const [k, v] of Object.entries(add({}, c.resources?.requests))) sum[k] = Math.max(sum[k] ?? 0, v);
  return add(sum, spec.overhead);
}

export function allocatableOf(node: KubeObject): Free {
  const status = (node.status ?? {}) as {
    allocatable?: Record<string, string>;
    capacity?: Record<string, string>;
  };
  const out: Free = {};
  for (const [k, v] of Object.entries(status.allocatable ?? status.capacity ?? {})) out[k] = quantityMilli(v);
  return out;
}

export function schedulable(node: KubeObject): boolean {
  const spec = (node.spec ?? {}) as { unschedulable?: boolean };
  const ready = (
    (node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []
  ).find((c) => c.type === 'Ready');
  return !spec.unschedulable && !node.metadata.deletionTimestamp && ready?.status === 'True';
}

function tolerates(pod: KubeObject, node: KubeObject): boolean {
  const taints = (
    (node.spec as { taints?: { key: string; value?: string; effect: string }[] } | undefined)?.taints ?? []
  ).filter((t) => t.effect !== 'PreferNoSchedule');
  const tolerations = specOf(pod).tolerations ?? [];
  return taints.every((t) =>
    tolerations.some(
      (tol) =>
        (!tol.effect || tol.effect === t.effect) &&
        ((tol.operator === 'Exists' && (!tol.key || tol.key === t.key)) ||
          (tol.key === t.key && (tol.value ?? '') === (t.value ?? ''))),
    ),
  );
}

function matchesExpr(labels: Record<string, string>, e: Expr): boolean {
  const v = labels[e.key];
  const values = e.values ?? [];
  switch (e.operator) {
    case 'In':
      return v !== undefined && values.includes(v);
    case 'NotIn':
      return v === undefined || !values.includes(v);
    case 'Exists':
      return v !== undefined;
    case 'DoesNotExist':
      return v === undefined;
    case 'Gt':
      return v !== undefined && Number(v) > Number(values[0]);
    case 'Lt':
      return v !== undefined && Number(v) < Number(values[0]);
    default:
      return false;
  }
}

export function fits(pod: KubeObject, node: KubeObject, free: Free): boolean {
  // Room first: the cheapest test, and the one most nodes of a full fleet fail.
  for (const [k, v] of Object.entries(requestsOf(pod))) if (v > 0 && (free[k] ?? 0) < v) return false;
  const labels = labelsOf(node);
  const spec = specOf(pod);
  if (!tolerates(pod, node)) return false;
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (
    terms &&
    terms.length > 0 &&
    !terms.some((t) => (t.matchExpressions ?? []).every((e) => matchesExpr(labels, e)))
  )
    return false;
  return true;
}

export function take(free: Free, pod: KubeObject): void {
  for (const [k, v] of Object.entries(requestsOf(pod))) free[k] = (free[k] ?? 0) - v;
}
