// The emulator's resource types: built-in core kinds plus custom resources installed from CRDs,
// each known by group/version/plural with its kind, scope and subresources (what discovery serves).
import type { JsonSchema } from './schema.ts';

export interface ResourceType {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  /** Subresources served: status (PUT/PATCH touch only .status), eviction (pods). */
  readonly subresources: readonly ('status' | 'eviction')[];
  /** openAPIV3Schema from the CRD; custom resources are validated against it on write. */
  readonly schema?: JsonSchema;
  /** Served from a CRD: an update must carry metadata.resourceVersion (no unconditional update). */
  readonly custom?: true;
  /** The CRD version's additionalPrinterColumns: the columns of `kubectl get` (server-side Table, tables.ts). */
  readonly printerColumns?: readonly PrinterColumn[];
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly jsonPath: string;
  readonly priority?: number;
  readonly description?: string;
}

export const apiVersionOf = (t: { group: string; version: string }): string =>
  t.group ? `${t.group}/${t.version}` : t.version;
export const typeKey = (group: string, version: string, plural: string): string =>
  `${group}/${version}/${plural}`;

const core = (
  plural: string,
  kind: string,
  namespaced: boolean,
  extra: Partial<ResourceType> = {},
): ResourceType => ({
  group: '',
  version: 'v1',
  plural,
  singular: kind.toLowerCase(),
  kind,
  namespaced,
  shortNames: [],
  subresources: ['status'],
  ...extra,
});

export const BUILTIN_TYPES: readonly ResourceType[] = [
  core('nodes', 'Node', false, { shortNames: ['no'] }),
  core('pods', 'Pod', true, { shortNames: ['po'], subresources: ['status', 'eviction'] }),
  core('namespaces', 'Namespace', false, { shortNames: ['ns'] }),
  core('events', 'Event', true, { shortNames: ['ev'], subresources: [] }),
  core('secrets', 'Secret', true, { subresources: [] }),
  core('persistentvolumeclaims', 'PersistentVolumeClaim', true, { shortNames: ['pvc'] }),
  core('persistentvolumes', 'PersistentVolume', false, { shortNames: ['pv'] }),
  core('podtemplates', 'PodTemplate', true, { subresources: [] }),
  { ...core('poddisruptionbudgets', 'PodDisruptionBudget', true, { shortNames: ['pdb'] }), group: 'policy' },
  { ...core('daemonsets', 'DaemonSet', true, { shortNames: ['ds'] }), group: 'apps' },
  {
    ...core('storageclasses', 'StorageClass', false, { shortNames: ['sc'], subresources: [] }),
    group: 'storage.k8s.io',
  },
  { ...core('csinodes', 'CSINode', false, { subresources: [] }), group: 'storage.k8s.io' },
  { ...core('leases', 'Lease', true, { subresources: [] }), group: 'coordination.k8s.io' },
  {
    ...core('customresourcedefinitions', 'CustomResourceDefinition', false, { shortNames: ['crd', 'crds'] }),
    group: 'apiextensions.k8s.io',
  },
];

/** A CustomResourceDefinition object as far as the emulator reads it. */
export interface CrdObject {
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: { plural: string; singular?: string; kind: string; shortNames?: string[] };
    versions: {
      name: string;
      served?: boolean;
      subresources?: { status?: object };
      schema?: { openAPIV3Schema?: JsonSchema };
      additionalPrinterColumns?: PrinterColumn[];
    }[];
  };
}

/** One ResourceType per served version of a CRD. */
export function typesFromCrd(crd: CrdObject): ResourceType[] {
  const { group, names, scope } = crd.spec;
  return crd.spec.versions
    .filter((v) => v.served !== false)
    .map((v) => ({
      group,
      version: v.name,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      kind: names.kind,
      namespaced: scope === 'Namespaced',
      shortNames: names.shortNames ?? [],
      subresources: v.subresources?.status ? (['status'] as const) : [],
      custom: true as const,
      ...(v.schema?.openAPIV3Schema ? { schema: v.schema.openAPIV3Schema } : {}),
      ...(v.additionalPrinterColumns ? { printerColumns: v.additionalPrinterColumns } : {}),
    }));
}
