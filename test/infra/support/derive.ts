// Derives each function's AWS permissions from its own code: esbuild bundles its handler (tree-shaken, so a
// function a bundled file exports but the handler never reaches is not in it), the bundle names the StateStore
// and CloudProvider methods it calls, and infra/iam/calls.yml plus the EC2 adapter's PERMISSIONS.md turn the
// methods into IAM actions. The roles in infra/iam/roles.yml must match. The same port calls, through the
// table's `gce:` rows and the Compute Engine adapter's PERMISSIONS.md, give each function's Google custom role
// (infra/gcp/roles/<function>.yaml).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { z } from 'zod';

export const ROOT = join(import.meta.dirname, '..', '..', '..');

const callsSchema = z.object({
  store: z.record(z.string(), z.array(z.string()).min(1)),
  cloud: z.record(z.string(), z.array(z.string()).min(1)),
  gce: z.record(z.string(), z.array(z.string()).min(1)),
  iam: z.record(z.string(), z.array(z.string()).min(1)),
  ssm: z.record(z.string(), z.array(z.string()).min(1)),
  partitions: z.record(z.string(), z.array(z.string().regex(/^[A-Z]+$/)).min(1)),
});
export type CallTable = z.infer<typeof callsSchema>;

export function readCallTable(): CallTable {
  return callsSchema.parse(parse(readFileSync(join(ROOT, 'infra/iam/calls.yml'), 'utf8')));
}

/** API call (first column of PERMISSIONS.md) → the IAM actions its row names. */
export function readEc2Permissions(): Map<string, string[]> {
  const text = readFileSync(join(ROOT, 'shared/adapters/aws-ec2/PERMISSIONS.md'), 'utf8');
  const rows = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const call = /^`(\w+)`|^Price List `(\w+)`/.exec(cells[1] ?? '');
    const name = call?.[1] ?? call?.[2];
    if (!name) continue;
    // ec2:CreateAction is the condition key the row names, not an action.
    const actions = (cells[3] ?? '').match(/\b(?:ec2|pricing|iam|ssm):[A-Za-z]+/g) ?? [];
    rows.set(name, [...new Set(actions.filter((a) => a !== 'ec2:CreateAction'))]);
  }
  return rows;
}

/** What a handler bundles of the repository's own code (npm packages left out). */
export interface Bundle {
  /** The source files that survive tree shaking. */
  readonly files: readonly string[];
  /** The bundled code itself: only what the handler can reach, down to the top-level function. */
  readonly code: string;
}

export async function bundleOf(handler: string): Promise<Bundle> {
  const out = await build({
    entryPoints: [join(ROOT, handler)],
    bundle: true,
    write: false,
    outdir: join(ROOT, '.tmp', 'derive'),
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  // Only what survives tree shaking: a barrel import must not count a builder the handler never calls.
  const kept = Object.values(out.metafile.outputs).flatMap((o) =>
    Object.entries(o.inputs)
      .filter(([, use]) => use.bytesInOutput > 0)
      .map(([f]) => f),
  );
  const files = [...new Set(kept)]
    .map((f) => relative(ROOT, join(ROOT, f)))
    .filter((f) => !f.includes('node_modules'))
    .sort();
  return { files, code: out.outputFiles.map((f) => f.text).join('\n') };
}

export interface PortCalls {
  readonly store: ReadonlySet<string>;
  readonly cloud: ReadonlySet<string>;
  readonly invokes: boolean;
  /** Whether the EC2 adapter is bundled: a CloudProvider call costs AWS permissions only through it. */
  readonly ec2: boolean;
  /** The methods with IAM calls (`iam:` rows): CloudProvider launches and lifecycle's instance-profile collector. */
  readonly iam: ReadonlySet<string>;
  /** The CloudProvider methods that resolve image aliases through SSM (`ssm:` rows), when images.ts is bundled. */
  readonly ssm: ReadonlySet<string>;
}

// esbuild renames a local that collides with another module's (`store` → `store2`): the digits are matched too.
const STORE_CALL = /\bstore\d*\??\.(\w+)\(/g;
const CLOUD_CALL = /\b(?:provider|source)\d*\??\.(\w+)\(/g;
/** lifecycle's `instanceProfiles.collect(…)` (shared/loop/instance-profile-gc.ts). */
const PROFILE_CALL = /\binstanceProfiles\d*\??\.(\w+)\(/g;

/**
 * The port methods a bundle calls (cloud calls are kept only when the port has such a method). Read from the
 * bundled code, not the whole files: a file that lends the handler one constant must not lend it the calls
 * of its functions the handler never reaches (orchestrate takes a taint from admit's start-command.ts).
 */
export function portCallsIn(bundle: Bundle, table: CallTable): PortCalls {
  const store = new Set<string>();
  const cloud = new Set<string>();
  for (const m of bundle.code.matchAll(STORE_CALL)) store.add(m[1] as string);
  for (const m of bundle.code.matchAll(CLOUD_CALL)) if (m[1] && m[1] in table.cloud) cloud.add(m[1]);
  const invokes = /\binvoker\d*\??\.invoke\(/.test(bundle.code);
  const ec2 = ['provider.ts', 'price-source.ts'].some((f) =>
    bundle.files.includes(`shared/adapters/aws-ec2/${f}`),
  );
  const iam = new Set<string>();
  if (ec2 && bundle.files.includes('shared/adapters/aws-ec2/instance-profiles.ts')) {
    for (const m of cloud) if (m in table.iam) iam.add(m);
    for (const m of bundle.code.matchAll(PROFILE_CALL)) if (m[1] && m[1] in table.iam) iam.add(m[1]);
  }
  const ssm = new Set<string>();
  if (ec2 && bundle.files.includes('shared/adapters/aws-ec2/images.ts'))
    for (const m of cloud) if (m in table.ssm) ssm.add(m);
  return { store, cloud, invokes, ec2, iam, ssm };
}

export interface DerivedActions {
  readonly dynamodb: ReadonlySet<string>;
  readonly ec2: ReadonlySet<string>;
  /** IAM actions of the instance-profile calls (`iam:` rows). */
  readonly iam: ReadonlySet<string>;
  /** SSM actions of the image-alias calls (`ssm:` rows). */
  readonly ssm: ReadonlySet<string>;
  /** Methods or calls with no row to derive from: the table or PERMISSIONS.md must grow. */
  readonly unknown: readonly string[];
}

export function deriveActions(
  calls: PortCalls,
  table: CallTable,
  ec2: Map<string, string[]>,
): DerivedActions {
  const dynamodb = new Set<string>();
  const actions = new Set<string>();
  const unknown: string[] = [];
  for (const method of calls.store) {
    const ops = table.store[method];
    if (!ops) unknown.push(`StateStore.${method} (no row under store: in infra/iam/calls.yml)`);
    for (const op of ops ?? []) dynamodb.add(`dynamodb:${op}`);
  }
  for (const method of calls.ec2 ? calls.cloud : [])
    for (const call of table.cloud[method] ?? []) {
      const row = ec2.get(call);
      if (!row) unknown.push(`${call} (CloudProvider.${method}; no row in aws-ec2/PERMISSIONS.md)`);
      for (const a of row ?? []) actions.add(a);
    }
  const iam = new Set<string>();
  for (const method of calls.iam)
    for (const call of table.iam[method] ?? []) {
      const row = ec2.get(call);
      if (!row) unknown.push(`${call} (iam: ${method}; no row in aws-ec2/PERMISSIONS.md)`);
      for (const a of row ?? []) iam.add(a);
    }
  const ssm = new Set<string>();
  for (const method of calls.ssm)
    for (const call of table.ssm[method] ?? []) {
      const row = ec2.get(call);
      if (!row) unknown.push(`${call} (ssm: ${method}; no row in aws-ec2/PERMISSIONS.md)`);
      for (const a of row ?? []) ssm.add(a);
    }
  return { dynamodb, ec2: actions, iam, ssm, unknown };
}

/** Compute Engine API call (first column of gcp-compute/PERMISSIONS.md) → the IAM permissions its row names. */
export function readGcePermissions(): Map<string, string[]> {
  const text = readFileSync(join(ROOT, 'shared/adapters/gcp-compute/PERMISSIONS.md'), 'utf8');
  const rows = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const call = /^(?:Cloud Billing )?`([\w.]+)`/.exec(cells[1] ?? '')?.[1];
    if (!call) continue;
    // Only project-level Compute permissions go into a custom role; iam.serviceAccounts.actAs is granted on
    // the nodes' service account alone (roles/iam.serviceAccountUser there, docs/deploy.md).
    rows.set(call, [...new Set((cells[3] ?? '').match(/\bcompute\.[A-Za-z]+\.[A-Za-z]+/g) ?? [])]);
  }
  return rows;
}

/** `deps.preemptions?.interruptions(…)`: lifecycle reads Compute Engine preemptions through its own port. */
const GCE_CALL = /\b(?:provider|source|preemptions)\d*\??\.(\w+)\(/g;

export interface GceCalls {
  /** Whether the Compute Engine adapter is bundled: only then does a port call cost Google permissions. */
  readonly bundled: boolean;
  /** The port methods (rows under `gce:` in infra/iam/calls.yml) the bundled code calls. */
  readonly methods: ReadonlySet<string>;
}

export function gceCallsIn(bundle: Bundle, table: CallTable): GceCalls {
  const bundled = ['provider.ts', 'price-source.ts'].some((f) =>
    bundle.files.includes(`shared/adapters/gcp-compute/${f}`),
  );
  const methods = new Set<string>();
  if (bundled)
    for (const m of bundle.code.matchAll(GCE_CALL)) if (m[1] && m[1] in table.gce) methods.add(m[1]);
  return { bundled, methods };
}

/** The Compute Engine permissions the methods cost; calls with no row in PERMISSIONS.md are `unknown`. */
export function deriveGcePermissions(
  calls: GceCalls,
  table: CallTable,
  rows: Map<string, string[]>,
): { readonly permissions: ReadonlySet<string>; readonly unknown: readonly string[] } {
  const permissions = new Set<string>();
  const unknown: string[] = [];
  for (const method of calls.methods)
    for (const call of table.gce[method] ?? []) {
      const row = rows.get(call);
      if (!row) unknown.push(`${call} (CloudProvider.${method}; no row in gcp-compute/PERMISSIONS.md)`);
      for (const p of row ?? []) permissions.add(p);
    }
  return { permissions, unknown };
}

/** DynamoDB actions that write (a ConditionCheck is the fence's part of a write): held to dynamodb:LeadingKeys. */
export const DYNAMODB_WRITES = new Set([
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:TransactWriteItems',
  'dynamodb:ConditionCheckItem',
]);

/**
 * The partition kinds (`C#<cluster>#<KIND>`) the bundled StateStore calls write, from calls.yml `partitions:`;
 * a method whose actions write but that has no row there is `unknown`.
 */
export function derivePartitions(
  calls: PortCalls,
  table: CallTable,
): { readonly kinds: ReadonlySet<string>; readonly unknown: readonly string[] } {
  const kinds = new Set<string>();
  const unknown: string[] = [];
  for (const method of calls.store) {
    const writes = (table.store[method] ?? []).some((op) => DYNAMODB_WRITES.has(`dynamodb:${op}`));
    const row = table.partitions[method];
    if (writes && !row)
      unknown.push(`StateStore.${method} (no row under partitions: in infra/iam/calls.yml)`);
    for (const k of row ?? []) kinds.add(k);
  }
  return { kinds, unknown };
}

/** Cluster port methods that only read the API server (get, list, watch): the read-only identity's. */
export const CLUSTER_READS = new Set([
  'readSnapshot',
  'listPodsOnNode',
  'getNode',
  'getNodeClaim',
  'listNodeClaims',
]);
/** Cluster port methods that write (taint, label, create, status, delete, evict): the writer's. */
export const CLUSTER_WRITES = new Set([
  'addTaint',
  'removeTaint',
  'patchMetadata',
  'createNodeClaim',
  'updateNodeClaimStatus',
  'deleteNodeClaim',
  'deleteNode',
  'removeFinalizer',
  'addFinalizer',
  'evictPod',
  'patchStatus',
]);
/** Cluster port methods on bootstrap-token Secrets: only the launchers' identity may (infra/rbac/launcher.yaml). */
export const CLUSTER_JOIN_TOKENS = new Set(['issueJoinToken', 'readJoinToken']);
/**
 * Events are the one write the read-only identity may make (infra/rbac/reader.yaml): consolidate reports why a
 * node is not disrupted as Karpenter does, with `DisruptionBlocked` and `Unconsolidatable`.
 */
export const CLUSTER_EVENTS = new Set(['recordEvent']);

/** The Cluster port methods a bundle calls (`cluster.readSnapshot(` …), only when the kube adapter is bundled. */
export function clusterCallsIn(bundle: Bundle): ReadonlySet<string> {
  const out = new Set<string>();
  if (!bundle.files.includes('shared/adapters/kube/cluster.ts')) return out;
  for (const m of bundle.code.matchAll(/\bcluster\d*\??\.(\w+)\(/g))
    if (
      m[1] &&
      (CLUSTER_READS.has(m[1]) ||
        CLUSTER_WRITES.has(m[1]) ||
        CLUSTER_JOIN_TOKENS.has(m[1]) ||
        CLUSTER_EVENTS.has(m[1]))
    )
      out.add(m[1]);
  return out;
}
