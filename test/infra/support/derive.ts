// Derives each function's AWS permissions from its own code: esbuild lists the files its handler bundles,
// those files name the StateStore and CloudProvider methods they call, and infra/iam/calls.yml plus the EC2
// adapter's PERMISSIONS.md turn the methods into IAM actions. The roles in infra/iam/roles.yml must match.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { z } from 'zod';

export const ROOT = join(import.meta.dirname, '..', '..', '..');

const callsSchema = z.object({
  store: z.record(z.string(), z.array(z.string()).min(1)),
  cloud: z.record(z.string(), z.array(z.string()).min(1)),
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
    const actions = (cells[3] ?? '').match(/\b(?:ec2|pricing):[A-Za-z]+/g) ?? [];
    rows.set(name, [...new Set(actions.filter((a) => a !== 'ec2:CreateAction'))]);
  }
  return rows;
}

/** The repository's own source files a handler bundles (npm packages left out). */
export async function bundledSources(handler: string): Promise<string[]> {
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
  return [...new Set(kept)]
    .map((f) => relative(ROOT, join(ROOT, f)))
    .filter((f) => !f.includes('node_modules'))
    .sort();
}

export interface PortCalls {
  readonly store: ReadonlySet<string>;
  readonly cloud: ReadonlySet<string>;
  readonly invokes: boolean;
  /** Whether the EC2 adapter is bundled: a CloudProvider call costs AWS permissions only through it. */
  readonly ec2: boolean;
}

const STORE_CALL = /\bstore\??\.(\w+)\(/g;
const CLOUD_CALL = /\b(?:provider|source)\??\.(\w+)\(/g;

/** The port methods the given files call (cloud calls are kept only when the port has such a method). */
export function portCallsIn(files: readonly string[], table: CallTable): PortCalls {
  const store = new Set<string>();
  const cloud = new Set<string>();
  let invokes = false;
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    for (const m of text.matchAll(STORE_CALL)) store.add(m[1] as string);
    for (const m of text.matchAll(CLOUD_CALL)) if (m[1] && m[1] in table.cloud) cloud.add(m[1]);
    if (/\binvoker\??\.invoke\(/.test(text)) invokes = true;
  }
  const ec2 = ['provider.ts', 'price-source.ts'].some((f) => files.includes(`shared/adapters/aws-ec2/${f}`));
  return { store, cloud, invokes, ec2 };
}

export interface DerivedActions {
  readonly dynamodb: ReadonlySet<string>;
  readonly ec2: ReadonlySet<string>;
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
  return { dynamodb, ec2: actions, unknown };
}
