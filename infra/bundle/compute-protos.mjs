// esbuild plugin (serverless.yml custom.esbuild.plugins; bench:bundle): @google-cloud/compute's REST transport
// needs its proto descriptors (request transcoding and the http bindings), but protos.json describes every API
// version, 11.7 MB that every GCP bundle parsed at cold start. The bundle gets only the v1 services the adapter
// imports (shared/adapters/gcp-compute/clients.ts) and the types they reach; a missing type fails the build.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const protobuf = require('protobufjs');

/** The v1 services of the clients in shared/adapters/gcp-compute/clients.ts (test/infra/bundle*.test.ts). */
export const COMPUTE_SERVICES = ['AcceleratorTypes', 'Instances', 'MachineTypes', 'ZoneOperations'];
const V1 = ['google', 'cloud', 'compute', 'v1'];

/** Full names of the services and every message or enum reachable from their methods. */
function reachable(root, services) {
  const keep = new Set();
  const visit = (t) => {
    if (!t || keep.has(t.fullName)) return;
    keep.add(t.fullName);
    if (t instanceof protobuf.Type) {
      for (const f of t.fieldsArray) visit(f.resolve().resolvedType);
      for (const n of t.nestedArray) visit(n);
    }
  };
  for (const name of services) {
    const svc = root.lookupService(`${V1.join('.')}.${name}`);
    keep.add(svc.fullName);
    for (const m of svc.methodsArray) {
      m.resolve();
      visit(m.resolvedRequestType);
      visit(m.resolvedResponseType);
    }
  }
  return keep;
}

/** `tree` with the namespace at `path` replaced by `value` (no copy of the rest: it is shared). */
function replaceAt(tree, path, value) {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return { ...tree, nested: { ...tree.nested, [head]: replaceAt(tree.nested[head], rest, value) } };
}

/** protos.json with google.cloud.compute cut to v1's reachable part; everything outside it is kept whole. */
export function pruneComputeProtos(full, services = COMPUTE_SERVICES) {
  const keep = reachable(protobuf.Root.fromJSON(full), services);
  const compute = full.nested.google.nested.cloud.nested.compute;
  const { nested: all, ...v1Options } = compute.nested.v1;
  const kept = Object.entries(all).filter(([name]) => keep.has(`.${V1.join('.')}.${name}`));
  const v1 = { ...v1Options, nested: Object.fromEntries(kept) };
  const pruned = replaceAt(full, V1.slice(0, 3), { ...compute, nested: { v1 } });
  // Every reference left must resolve, or a deployed function would fail on its first call.
  protobuf.Root.fromJSON(pruned).resolveAll();
  return pruned;
}

const PROTOS = /[\\/]@google-cloud[\\/]compute[\\/]build[\\/]protos[\\/]protos\.json$/;

/** One pruning per file per process: osls bundles every function in one process. */
const pruned = new Map();
const prunedFile = (path) => {
  if (!pruned.has(path))
    pruned.set(path, JSON.stringify(pruneComputeProtos(JSON.parse(readFileSync(path, 'utf8')))));
  return pruned.get(path);
};

export const computeProtosPlugin = {
  name: 'kraftsman-compute-protos',
  setup(build) {
    build.onLoad({ filter: PROTOS }, (args) => ({ contents: prunedFile(args.path), loader: 'json' }));
  },
};

export default [computeProtosPlugin];
