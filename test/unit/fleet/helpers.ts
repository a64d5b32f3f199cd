// Test helpers over generated fleets: typed views of plain objects, schema parsing, request sums and
// a NodePool-requirement check against a node's labels.
import { KINDS, isKnownKind } from '../../../shared/model/objects.ts';
import { quantityMilli } from '../../../shared/model/quantity.ts';

export interface Obj {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{ kind: string; name: string }>;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}
export interface PodObj extends Obj {
  spec: {
    nodeName?: string;
    nodeSelector?: Record<string, string>;
    schedulerName?: string;
    tolerations?: Array<{ key?: string; operator?: string; value?: string; effect?: string }>;
    containers: Array<{ resources?: { requests?: Record<string, string> } }>;
    affinity?: {
      podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: Array<{ topologyKey: string }> };
    };
    topologySpreadConstraints?: Array<{
      maxSkew: number;
      topologyKey: string;
      labelSelector: { matchLabels: Record<string, string> };
    }>;
  };
  status: { phase: string };
}
export interface NodeObj extends Obj {
  metadata: Obj['metadata'] & { labels: Record<string, string> };
  spec: { taints?: Array<{ key: string; value?: string; effect: string }> };
  status: { capacity: Record<string, string>; allocatable: Record<string, string> };
}

export const ofKind = <T extends Obj = Obj>(objects: readonly unknown[], kind: string): T[] =>
  (objects as Obj[]).filter((o) => o.kind === kind) as T[];

/** Every object whose kind kraftsman reads parses with its schema at its apiVersion; returns the first failures. */
export function schemaFailures(objects: readonly unknown[]): string[] {
  const failures: string[] = [];
  for (const o of objects as Obj[]) {
    if (!isKnownKind(o.kind)) {
      failures.push(`unknown kind ${o.kind}`);
      continue;
    }
    const entry = KINDS[o.kind];
    if (o.apiVersion !== entry.apiVersion)
      failures.push(`${o.kind} ${o.metadata.name}: apiVersion ${o.apiVersion}`);
    const parsed = entry.schema.safeParse(o);
    if (!parsed.success)
      failures.push(
        `${o.kind} ${o.metadata.name}: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
      );
    if (failures.length > 5) break;
  }
  return failures;
}

export const milli = (q: string | undefined): number => (q === undefined ? 0 : quantityMilli(q));
export const request = (pod: PodObj, resource: string): number =>
  pod.spec.containers.reduce((sum, c) => sum + milli(c.resources?.requests?.[resource]), 0);

export function tolerates(pod: PodObj, taint: { key: string; value?: string; effect: string }): boolean {
  return (pod.spec.tolerations ?? []).some(
    (t) =>
      (t.effect === undefined || t.effect === '' || t.effect === taint.effect) &&
      (t.operator === 'Exists'
        ? t.key === undefined || t.key === taint.key
        : t.key === taint.key && (t.value ?? '') === (taint.value ?? '')),
  );
}

export interface Req {
  key: string;
  operator: string;
  values?: string[];
}

/** NodePool requirement semantics over one label value (Karpenter's In/NotIn/Exists/DoesNotExist/Gt/Lt). */
export function satisfies(labels: Record<string, string>, r: Req): boolean {
  const v = labels[r.key];
  switch (r.operator) {
    case 'In':
      return v !== undefined && (r.values ?? []).includes(v);
    case 'NotIn':
      return v === undefined || !(r.values ?? []).includes(v);
    case 'Exists':
      return v !== undefined;
    case 'DoesNotExist':
      return v === undefined;
    case 'Gt':
      return v !== undefined && Number(v) > Number(r.values?.[0]);
    case 'Lt':
      return v !== undefined && Number(v) < Number(r.values?.[0]);
    default:
      return false;
  }
}
