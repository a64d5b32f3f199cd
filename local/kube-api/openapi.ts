// The OpenAPI v3 documents kubectl fetches before `apply`/`create`/`replace` (docs: the Kubernetes API concepts
// page, "OpenAPI v3"): `/openapi/v3` lists one document per group-version, and each document's paths carry, on
// every resource's PATCH operation, `x-kubernetes-group-version-kind` and the `fieldValidation` query parameter.
// kubectl's QueryParamVerifierV3 finds that parameter and validates on the server (fieldValidation=Strict) instead
// of failing with "failed to download openapi". A custom resource's document also carries its CRD's schema.
import { createHash } from 'node:crypto';
import type { ResourceType } from './resources.ts';

const gvPath = (t: { group: string; version: string }): string =>
  t.group ? `apis/${t.group}/${t.version}` : `api/${t.version}`;

const QUERY_PARAMS = ['fieldValidation', 'fieldManager', 'dryRun', 'force'].map((name) => ({
  name,
  in: 'query',
  schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true },
}));

function document(types: readonly ResourceType[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const t of types) {
    const gvk = { group: t.group, version: t.version, kind: t.kind };
    const base = `/${gvPath(t)}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}`;
    const op = (verb: string) => ({
      operationId: `${verb}${t.kind}`,
      'x-kubernetes-action': verb,
      'x-kubernetes-group-version-kind': gvk,
      parameters: QUERY_PARAMS,
      responses: { '200': { description: 'OK' } },
    });
    paths[base] = { post: op('post'), get: { ...op('list'), parameters: [] } };
    paths[`${base}/{name}`] = { get: { ...op('get'), parameters: [] }, put: op('put'), patch: op('patch') };
    const name = `${t.group || 'core'}.${t.version}.${t.kind}`;
    schemas[name] = {
      ...(t.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      'x-kubernetes-group-version-kind': [gvk],
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes (kraftsman emulator)', version: 'v1.31.0' },
    paths,
    components: { schemas },
  };
}

/** The documents by path (`api/v1`, `apis/karpenter.sh/v1`, …), and the index kubectl reads first. */
export function openApiV3(types: readonly ResourceType[]): {
  index: Record<string, unknown>;
  documents: ReadonlyMap<string, Record<string, unknown>>;
} {
  const byGv = new Map<string, ResourceType[]>();
  for (const t of types) byGv.set(gvPath(t), [...(byGv.get(gvPath(t)) ?? []), t]);
  const documents = new Map<string, Record<string, unknown>>();
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [gv, list] of [...byGv].sort((a, b) => a[0].localeCompare(b[0]))) {
    const doc = document(list);
    documents.set(gv, doc);
    const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 64).toUpperCase();
    paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hash}` };
  }
  return { index: { paths }, documents };
}
