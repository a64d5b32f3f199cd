// The three patch types the API server accepts on PATCH, chosen by Content-Type: RFC 6902 JSON patch,
// RFC 7386 merge patch, and a simple strategic merge patch (lists with a merge key merge by it).
import { statusError } from './status.ts';

export const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
} as const;

type Json = unknown;
type JsonObject = Record<string, Json>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);

export function applyPatch(contentType: string, target: JsonObject, patch: unknown): JsonObject {
  const type = contentType.split(';')[0]?.trim();
  if (type === PATCH_TYPES.json) {
    if (!Array.isArray(patch))
      throw statusError(400, 'BadRequest', 'json patch must be an array of operations');
    return jsonPatch(target, patch);
  }
  if (!isObject(patch)) throw statusError(400, 'BadRequest', 'a merge patch must be a JSON object');
  if (type === PATCH_TYPES.merge) return mergePatch(target, patch) as JsonObject;
  if (type === PATCH_TYPES.strategic) return strategicMerge(target, patch, '') as JsonObject;
  throw statusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${Object.values(PATCH_TYPES).join(', ')}`,
  );
}

// ---- RFC 7386 ----
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

// ---- RFC 6902 ----
const unescape = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw statusError(422, 'Invalid', `invalid json pointer "${path}"`);
  return path.slice(1).split('/').map(unescape);
}

function parentOf(
  doc: JsonObject,
  parts: string[],
  path: string,
): { parent: JsonObject | Json[]; key: string } {
  let cur: Json = doc;
  for (const p of parts.slice(0, -1)) {
    cur = Array.isArray(cur) ? cur[Number(p)] : isObject(cur) ? cur[p] : undefined;
    if (cur === undefined) throw statusError(422, 'Invalid', `json patch: path "${path}" does not exist`);
  }
  if (!Array.isArray(cur) && !isObject(cur))
    throw statusError(422, 'Invalid', `json patch: path "${path}" is not a container`);
  return { parent: cur, key: parts[parts.length - 1] ?? '' };
}

function getAt(doc: JsonObject, path: string): Json {
  let cur: Json = doc;
  for (const p of pointer(path))
    cur = Array.isArray(cur) ? cur[Number(p)] : isObject(cur) ? cur[p] : undefined;
  return cur;
}

function setAt(doc: JsonObject, path: string, value: Json, op: 'add' | 'replace'): void {
  const { parent, key } = parentOf(doc, pointer(path), path);
  if (Array.isArray(parent)) {
    const idx = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(idx) || idx < 0 || idx > parent.length)
      throw statusError(422, 'Invalid', `json patch: index out of range at "${path}"`);
    if (op === 'add') parent.splice(idx, 0, value);
    else parent[idx] = value;
  } else {
    if (op === 'replace' && !(key in parent))
      throw statusError(422, 'Invalid', `json patch: replace of missing path "${path}"`);
    parent[key] = value;
  }
}

function removeAt(doc: JsonObject, path: string): void {
  const { parent, key } = parentOf(doc, pointer(path), path);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (key in parent) delete parent[key];
  else throw statusError(422, 'Invalid', `json patch: remove of missing path "${path}"`);
}

export function jsonPatch(target: JsonObject, ops: unknown[]): JsonObject {
  const doc = clone(target);
  for (const raw of ops) {
    const op = raw as { op?: string; path?: string; from?: string; value?: Json };
    const path = op.path ?? '';
    switch (op.op) {
      case 'add':
      case 'replace':
        setAt(doc, path, clone(op.value), op.op);
        break;
      case 'remove':
        removeAt(doc, path);
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, path)) !== JSON.stringify(op.value))
          throw statusError(422, 'Invalid', `json patch: test failed at "${path}"`);
        break;
      case 'move':
      case 'copy': {
        const value = clone(getAt(doc, op.from ?? ''));
        if (op.op === 'move') removeAt(doc, op.from ?? '');
        setAt(doc, path, value, 'add');
        break;
      }
      default:
        throw statusError(422, 'Invalid', `json patch: unknown operation "${String(op.op)}"`);
    }
  }
  return doc;
}

// ---- strategic merge patch (simplified) ----
// Lists named here merge by their key, as in the Kubernetes types' patchMergeKey; every other list is
// replaced. Supports `$patch: delete` on list items and `$patch: replace` on a map or list item.
// Node `spec.taints` has no patchMergeKey in k8s.io/api, so a strategic merge patch replaces the whole
// list (a client that sends one taint erases the others), and so do pod `spec.tolerations`.
const MERGE_KEYS: Readonly<Record<string, string>> = {
  '.status.conditions': 'type',
  '.spec.containers': 'name',
  '.spec.initContainers': 'name',
  '.spec.volumes': 'name',
  '.status.addresses': 'type',
  '.metadata.ownerReferences': 'uid',
};

export function strategicMerge(target: Json, patch: Json, path: string): Json {
  if (!isObject(patch)) return clone(patch);
  if (patch['$patch'] === 'replace') {
    const { $patch: _ignored, ...rest } = patch;
    return clone(rest);
  }
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    const sub = `${path}.${k}`;
    if (v === null) delete out[k];
    else if (Array.isArray(v) && MERGE_KEYS[sub] && Array.isArray(out[k]))
      out[k] = mergeList(out[k] as Json[], v, MERGE_KEYS[sub]);
    else if (Array.isArray(v))
      out[k] = v.filter((item) => !(isObject(item) && item['$patch'] === 'delete')).map(clone);
    else out[k] = strategicMerge(out[k], v, sub);
  }
  return out;
}

function mergeList(current: Json[], patch: Json[], key: string): Json[] {
  const out = current.map(clone);
  for (const item of patch) {
    if (!isObject(item)) continue;
    const idx = out.findIndex((c) => isObject(c) && c[key] === item[key]);
    if (item['$patch'] === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) out[idx] = strategicMerge(out[idx], item, '');
    else out.push(clone(item));
  }
  return out;
}
