// Recognises Kubernetes-shaped documents by apiVersion + kind, validates each with its zod schema and groups
// them into ClusterObjects (docs/contract.md, "Input"): unknown kinds are warned about and skipped, a known kind
// at another version of its group is an error, and a malformed object names source, object and field path.
import type { z } from 'zod';
import { entriesOfKind, groupOf, KINDS, type KnownKind } from '../model/objects.ts';
import { objectRef } from '../model/meta.ts';
import { formatZodIssues } from '../model/zod-issues.ts';
import { MissingPodTemplateError, templateOf, templatesByKey } from './request-pods.ts';
import { InvalidDocumentError } from './errors.ts';
import { emptyObjects, type ClusterObjects } from './objects.ts';

export interface SourceDocument {
  readonly source: string;
  readonly value: unknown;
}

export interface Recognized {
  readonly objects: ClusterObjects;
  readonly warnings: readonly string[];
  readonly count: number;
}

const FIELD: Partial<Record<KnownKind, keyof ClusterObjects>> = {
  Node: 'nodes',
  Pod: 'pods',
  PodDisruptionBudget: 'pdbs',
  DaemonSet: 'daemonSets',
  Namespace: 'namespaces',
  PersistentVolumeClaim: 'pvcs',
  PersistentVolume: 'pvs',
  StorageClass: 'storageClasses',
  CSINode: 'csiNodes',
  NodePool: 'nodePools',
  NodeClaim: 'nodeClaims',
  EC2NodeClass: 'nodeClasses',
  GCENodeClass: 'nodeClasses',
  PodGroup: 'podGroups',
  Workload: 'workloads',
  WorkloadV1alpha1: 'workloads',
  WorkloadPodGroup: 'workloadPodGroups',
  ProvisioningRequest: 'provisioningRequests',
  PodTemplate: 'podTemplates',
};

/**
 * The entry that reads `apiVersion` `kind`, or why none does: another version of a group kraftsman reads the kind
 * at is an error naming the version(s) it reads; a kind of another group is not kraftsman's.
 */
function entryFor(apiVersion: string, kind: string): KnownKind | { expected: string[] } | undefined {
  const entries = entriesOfKind(kind).filter((k) => FIELD[k]);
  const exact = entries.find((k) => KINDS[k].apiVersion === apiVersion);
  if (exact) return exact;
  const sameGroup = entries.filter((k) => groupOf(KINDS[k].apiVersion) === groupOf(apiVersion));
  return sameGroup.length > 0 ? { expected: sameGroup.map((k) => KINDS[k].apiVersion) } : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Flattens `kind: List` (and `*List`) documents into their items; a List without an items array is malformed. */
function* flatten(doc: SourceDocument): Generator<SourceDocument> {
  const v = doc.value;
  if (v === null || v === undefined) return;
  if (isRecord(v) && typeof v.kind === 'string' && v.kind.endsWith('List')) {
    if (!Array.isArray(v.items)) {
      const meta = isRecord(v.metadata) ? (v.metadata as { name?: string }) : undefined;
      const got = v.items === undefined ? 'missing' : Array.isArray(v.items) ? 'array' : typeof v.items;
      throw new InvalidDocumentError(
        `${doc.source}: ${objectRef(v.kind, meta)}: items: expected an array of objects, got ${got}`,
        doc.source,
      );
    }
    for (const item of v.items) yield* flatten({ source: doc.source, value: item });
    return;
  }
  yield doc;
}

/** A ProvisioningRequest whose pod set names a PodTemplate that is not in the input cannot be answered. */
function checkTemplateRefs(objects: ClusterObjects, sources: ReadonlyMap<object, string>): void {
  const templates = templatesByKey(objects.podTemplates);
  for (const pr of objects.provisioningRequests) {
    try {
      pr.spec.podSets.forEach((_, i) => templateOf(pr, i, templates));
    } catch (e) {
      if (!(e instanceof MissingPodTemplateError)) throw e;
      const source = sources.get(pr) ?? 'input';
      throw new InvalidDocumentError(`${source}: ${e.message}`, source, { cause: e });
    }
  }
}

export function recognize(docs: readonly SourceDocument[]): Recognized {
  const warnings: string[] = [];
  // filled per kind below with zod-validated objects of that kind
  const out = emptyObjects() as unknown as Record<keyof ClusterObjects, unknown[]>;
  const seen = new Set<string>();
  const requestSources = new Map<object, string>();
  let count = 0;
  for (const doc of docs) {
    for (const { source, value } of flatten(doc)) {
      if (!isRecord(value)) throw new InvalidDocumentError(`${source}: a document is not an object`, source);
      const { apiVersion, kind } = value;
      const meta = isRecord(value.metadata)
        ? (value.metadata as { name?: string; namespace?: string })
        : undefined;
      if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
        throw new InvalidDocumentError(
          `${source}: ${objectRef(String(kind ?? 'object'), meta)}: apiVersion and kind are required`,
          source,
        );
      }
      const entry = entryFor(apiVersion, kind);
      if (entry === undefined) {
        warnings.push(
          `${source}: ignoring ${objectRef(kind, meta)} (${apiVersion}): not a kind kraftsman reads`,
        );
        continue;
      }
      if (typeof entry !== 'string') {
        throw new InvalidDocumentError(
          `${source}: ${objectRef(kind, meta)}: apiVersion ${apiVersion} is not supported; kraftsman reads ${kind} at ${entry.expected.join(' or ')}`,
          source,
        );
      }
      const parsed = (KINDS[entry].schema as z.ZodType).safeParse(value);
      if (!parsed.success) {
        throw new InvalidDocumentError(
          `${source}: ${objectRef(kind, meta)}: ${formatZodIssues(parsed.error)}`,
          source,
          { cause: parsed.error },
        );
      }
      const obj = parsed.data as { metadata: { name: string; namespace?: string } };
      const namespaced = ![
        'Node',
        'Namespace',
        'PersistentVolume',
        'StorageClass',
        'CSINode',
        'NodePool',
        'NodeClaim',
        'EC2NodeClass',
        'GCENodeClass',
      ].includes(entry);
      if (namespaced) obj.metadata.namespace ??= 'default';
      // a tuple, not a joined string: `a` + `b/c` and `a/b` + `c` must never be taken for one object; one object
      // at two versions of its group is one object
      const id = JSON.stringify([kind, groupOf(apiVersion), obj.metadata.namespace ?? '', obj.metadata.name]);
      if (seen.has(id)) {
        warnings.push(`${source}: ${objectRef(kind, obj.metadata)} given more than once; counted once`);
        continue;
      }
      seen.add(id);
      out[FIELD[entry] as keyof ClusterObjects].push(obj);
      if (entry === 'ProvisioningRequest') requestSources.set(obj, source);
      count++;
    }
  }
  checkTemplateRefs(out as unknown as ClusterObjects, requestSources);
  return { objects: out as ClusterObjects, warnings, count };
}
