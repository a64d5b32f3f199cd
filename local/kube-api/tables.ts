// Server-side printing (meta.k8s.io/v1 Table) for kubectl: nodes get NAME STATUS ROLES AGE VERSION,
// everything else NAME AGE.
import type { KubeObject } from './selectors.ts';

const age = (created: unknown): string => {
  const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(String(created))) / 1000));
  if (!Number.isFinite(seconds)) return '<unknown>';
  return seconds < 120
    ? `${seconds}s`
    : seconds < 7200
      ? `${Math.floor(seconds / 60)}m`
      : seconds < 172800
        ? `${Math.floor(seconds / 3600)}h`
        : `${Math.floor(seconds / 86400)}d`;
};

const col = (name: string, format = '') => ({ name, type: 'string', format, description: name, priority: 0 });

function nodeCells(o: KubeObject): string[] {
  const conditions =
    (o.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  let status = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  if ((o.spec as { unschedulable?: boolean } | undefined)?.unschedulable) status += ',SchedulingDisabled';
  const roles = Object.keys((o.metadata.labels ?? {}) as Record<string, string>)
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  const version =
    (o.status as { nodeInfo?: { kubeletVersion?: string } } | undefined)?.nodeInfo?.kubeletVersion ?? '';
  return [
    String(o.metadata.name),
    status,
    roles.join(',') || '<none>',
    age(o.metadata.creationTimestamp),
    version,
  ];
}

export function asTable(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { kind?: string; items?: KubeObject[]; metadata?: Record<string, unknown> };
  if (b.kind === 'Status' || !b.kind) return undefined;
  const items = Array.isArray(b.items) ? b.items : [body as KubeObject];
  const isNode = b.kind === 'NodeList' || b.kind === 'Node';
  const columnDefinitions = isNode
    ? [col('Name', 'name'), col('Status'), col('Roles'), col('Age'), col('Version')]
    : [col('Name', 'name'), col('Age')];
  const rows = items.map((o) => ({
    cells: isNode ? nodeCells(o) : [String(o.metadata.name), age(o.metadata.creationTimestamp)],
    object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
  }));
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: Array.isArray(b.items) ? (b.metadata ?? {}) : {},
    columnDefinitions,
    rows,
  };
}
