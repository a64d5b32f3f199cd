// Server-side printing (meta.k8s.io/v1 Table, `Accept: application/json;as=Table`) as kube-apiserver prints for
// kubectl: nodes NAME STATUS ROLES AGE VERSION (+ INTERNAL-IP with -o wide), pods NAME READY STATUS RESTARTS AGE
// (+ IP NODE), events LAST SEEN TYPE REASON OBJECT MESSAGE, custom resources NAME plus their CRD's
// additionalPrinterColumns (the AGE column when the CRD declares none), anything else NAME AGE. Ages are read
// on the emulator's clock, so a fleet on simulated time shows simulated ages.
import { cellText, evaluate } from './json-path.ts';
import type { PrinterColumn } from './resources.ts';
import type { KubeObject } from './selectors.ts';

export interface TableContext {
  readonly now: Date;
  /** The printer columns of the custom resource kind, undefined for a built-in kind. */
  readonly printerColumns: (kind: string) => readonly PrinterColumn[] | undefined;
}

/** kubectl's duration.HumanDuration, to the precision `kubectl get` shows. */
export function age(created: unknown, now: Date): string {
  const t = Date.parse(String(created));
  if (!Number.isFinite(t)) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now.getTime() - t) / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 ? `${minutes}m${seconds % 60}s` : `${minutes}m`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 ? `${hours}h${minutes % 60}m` : `${hours}h`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 8) return hours % 24 ? `${days}d${hours % 24}h` : `${days}d`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (years < 8) return days % 365 ? `${years}y${days % 365}d` : `${years}y`;
  return `${years}y`;
}

interface Column {
  readonly name: string;
  readonly type: string;
  readonly format?: string;
  readonly priority?: number;
  readonly cell: (o: KubeObject) => string | number;
}

const field = <T>(o: KubeObject, path: string): T | undefined => evaluate(o, path)[0] as T | undefined;

function nodeColumns(now: Date): Column[] {
  return [
    { name: 'Name', type: 'string', format: 'name', cell: (o) => String(o.metadata.name) },
    {
      name: 'Status',
      type: 'string',
      cell: (o) => {
        const ready = field<{ status: string }>(o, '.status.conditions[?(@.type=="Ready")]');
        const status = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
        return field<boolean>(o, '.spec.unschedulable') ? `${status},SchedulingDisabled` : status;
      },
    },
    {
      name: 'Roles',
      type: 'string',
      cell: (o) =>
        Object.keys(o.metadata.labels ?? {})
          .filter((k) => k.startsWith('node-role.kubernetes.io/'))
          .map((k) => k.slice('node-role.kubernetes.io/'.length))
          .join(',') || '<none>',
    },
    { name: 'Age', type: 'string', cell: (o) => age(o.metadata.creationTimestamp, now) },
    {
      name: 'Version',
      type: 'string',
      cell: (o) => field<string>(o, '.status.nodeInfo.kubeletVersion') ?? '',
    },
    {
      name: 'Internal-IP',
      type: 'string',
      priority: 1,
      cell: (o) => field<string>(o, '.status.addresses[?(@.type=="InternalIP")].address') ?? '<none>',
    },
  ];
}

function podColumns(now: Date): Column[] {
  const statuses = (o: KubeObject) =>
    (evaluate(o, '.status.containerStatuses')[0] as
      { ready?: boolean; restartCount?: number }[] | undefined) ?? [];
  const containers = (o: KubeObject) => (evaluate(o, '.spec.containers')[0] as unknown[] | undefined) ?? [];
  return [
    { name: 'Name', type: 'string', format: 'name', cell: (o) => String(o.metadata.name) },
    {
      name: 'Ready',
      type: 'string',
      cell: (o) => `${statuses(o).filter((s) => s.ready).length}/${containers(o).length}`,
    },
    {
      name: 'Status',
      type: 'string',
      // kubectl prints Terminating for a pod with a deletionTimestamp, else the phase (or a reason such as Evicted)
      cell: (o) =>
        o.metadata.deletionTimestamp
          ? 'Terminating'
          : (field<string>(o, '.status.reason') ?? field<string>(o, '.status.phase') ?? 'Pending'),
    },
    {
      name: 'Restarts',
      type: 'integer',
      cell: (o) => statuses(o).reduce((n, s) => n + (s.restartCount ?? 0), 0),
    },
    { name: 'Age', type: 'string', cell: (o) => age(o.metadata.creationTimestamp, now) },
    { name: 'IP', type: 'string', priority: 1, cell: (o) => field<string>(o, '.status.podIP') ?? '<none>' },
    {
      name: 'Node',
      type: 'string',
      priority: 1,
      cell: (o) => field<string>(o, '.spec.nodeName') ?? '<none>',
    },
  ];
}

function eventColumns(now: Date): Column[] {
  const last = (o: KubeObject) =>
    field<string>(o, '.lastTimestamp') ?? field<string>(o, '.eventTime') ?? o.metadata.creationTimestamp;
  return [
    { name: 'Last Seen', type: 'string', cell: (o) => age(last(o), now) },
    { name: 'Type', type: 'string', cell: (o) => field<string>(o, '.type') ?? '' },
    { name: 'Reason', type: 'string', cell: (o) => field<string>(o, '.reason') ?? '' },
    {
      name: 'Object',
      type: 'string',
      cell: (o) =>
        `${String(field<string>(o, '.involvedObject.kind') ?? '').toLowerCase()}/${field<string>(o, '.involvedObject.name') ?? ''}`,
    },
    { name: 'Message', type: 'string', cell: (o) => field<string>(o, '.message') ?? '' },
  ];
}

function customColumns(printer: readonly PrinterColumn[], now: Date): Column[] {
  const columns: Column[] = [
    { name: 'Name', type: 'string', format: 'name', cell: (o) => String(o.metadata.name) },
  ];
  for (const p of printer)
    columns.push({
      name: p.name,
      type: p.type,
      ...(p.priority ? { priority: p.priority } : {}),
      cell: (o) => (p.type === 'date' ? age(field(o, p.jsonPath), now) : cellText(evaluate(o, p.jsonPath))),
    });
  // kube-apiserver adds Age when a CRD declares no date column of its own
  if (!printer.some((p) => p.type === 'date'))
    columns.push({ name: 'Age', type: 'date', cell: (o) => age(o.metadata.creationTimestamp, now) });
  return columns;
}

function columnsFor(kind: string, ctx: TableContext): Column[] {
  if (kind === 'Node') return nodeColumns(ctx.now);
  if (kind === 'Pod') return podColumns(ctx.now);
  if (kind === 'Event') return eventColumns(ctx.now);
  const printer = ctx.printerColumns(kind);
  if (printer) return customColumns(printer, ctx.now);
  return [
    { name: 'Name', type: 'string', format: 'name', cell: (o) => String(o.metadata.name) },
    { name: 'Age', type: 'string', cell: (o) => age(o.metadata.creationTimestamp, ctx.now) },
  ];
}

export function asTable(body: unknown, ctx: TableContext): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { kind?: string; items?: KubeObject[]; metadata?: Record<string, unknown> };
  if (b.kind === 'Status' || !b.kind) return undefined;
  const items = Array.isArray(b.items) ? b.items : [body as KubeObject];
  const kind = Array.isArray(b.items) ? b.kind.replace(/List$/, '') : b.kind;
  const columns = columnsFor(kind, ctx);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: Array.isArray(b.items) ? (b.metadata ?? {}) : {},
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.name,
      priority: c.priority ?? 0,
    })),
    rows: items.map((o) => ({
      cells: columns.map((c) => c.cell(o)),
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}
