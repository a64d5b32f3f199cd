// Each function's bundle, built as `osls package` builds it (serverless.yml's esbuild settings), carries only SDKs
// its roles let it call: an AWS client only when its role (infra/iam/roles.yml) grants an action of that service,
// a Google Cloud client only when it has a Google role (infra/gcp/roles/<fn>.yaml). The Compute Engine client is
// loaded at cold start by launch-gcp and pricing alone, which call it on every invocation; the other functions
// with a Google role load it at their first Compute Engine call (functions/compose/lazy-gce.ts), and launch-aws
// carries none (docs/benchmarks.md, "bench:bundle").
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './support/derive.ts';
import { sdksIn, serverlessEsbuildOptions, splitOutputs } from './support/esbuild-options.ts';
import { serviceFunctions } from './support/package.ts';

/** The IAM service prefix each AWS client calls. */
const SERVICE: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/client-ec2': 'ec2',
  '@aws-sdk/client-iam': 'iam',
  '@aws-sdk/client-lambda': 'lambda',
  '@aws-sdk/client-pricing': 'pricing',
  '@aws-sdk/client-secrets-manager': 'secretsmanager',
  '@aws-sdk/client-ssm': 'ssm',
  '@aws-sdk/client-s3': 's3',
};
/** Google clients called on every invocation of these functions: loaded at cold start. */
const GOOGLE_AT_COLD_START = new Set(['launch-gcp', 'pricing']);
/**
 * Carried, never callable: the EC2 provider builds its IAM client (instance profiles: launches, lifecycle's
 * collector) and its SSM client (image aliases: launches, instance-type reads, drift) whatever the function
 * calls (functions/compose/ec2.ts). Not yet lazy; pinned so that the list can only shrink.
 */
const CARRIED_NOT_CALLABLE: Record<string, readonly string[]> = {
  provision: ['@aws-sdk/client-iam'],
  consolidate: ['@aws-sdk/client-iam'],
  admit: ['@aws-sdk/client-iam'],
  orchestrate: ['@aws-sdk/client-iam', '@aws-sdk/client-ssm'],
  census: ['@aws-sdk/client-iam'],
};

/** The actions each function's role allows, by function name (RoleName `<prefix>-<fn>`). */
function roleActions(): Map<string, Set<string>> {
  const doc = parse(readFileSync(join(ROOT, 'infra/iam/roles.yml'), 'utf8')) as {
    Resources: Record<string, { Properties?: { RoleName?: string; Policies?: unknown } }>;
  };
  const byFn = new Map<string, Set<string>>();
  const collect = (node: unknown, into: Set<string>): void => {
    if (Array.isArray(node)) for (const n of node) collect(n, into);
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (o.Effect === 'Allow' && o.Action !== undefined)
        for (const a of [o.Action].flat()) into.add(String(a));
      for (const v of Object.values(o)) collect(v, into);
    }
  };
  for (const r of Object.values(doc.Resources)) {
    const fn = /-([a-z-]+)$/.exec(r.Properties?.RoleName ?? '')?.[1];
    if (!fn) continue;
    const actions = new Set<string>();
    collect(r.Properties?.Policies, actions);
    byFn.set(fn, actions);
  }
  return byFn;
}

const ROLES = roleActions();
const FUNCTIONS = serviceFunctions().filter((f) => existsSync(join(ROOT, f.handlerFile)));

describe.each(FUNCTIONS)('the bundle of $name', ({ name, handlerFile }) => {
  it('carries an SDK only when its roles may call that service, the Google client lazily unless called every time', async () => {
    const result = await build({
      ...(await serverlessEsbuildOptions()),
      entryPoints: { handler: join(ROOT, handlerFile) },
      outdir: join(ROOT, '.tmp', `bundle-contents-${process.pid}`, name),
      write: false,
    });
    const meta = result.metafile ?? { inputs: {}, outputs: {} };
    const entry = Object.keys(meta.outputs).find((o) => o.endsWith(`${name}/handler.mjs`)) ?? '';
    const { eager, lazy } = splitOutputs(meta, entry);
    const atColdStart = sdksIn(meta, eager);
    const carried = new Set([...atColdStart, ...sdksIn(meta, lazy)]);
    const actions = ROLES.get(name);
    if (!actions) throw new Error(`infra/iam/roles.yml has no role named <prefix>-${name}`);
    const googleRole = existsSync(join(ROOT, 'infra/gcp/roles', `${name}.yaml`));
    const notCallable: string[] = [];
    for (const sdk of carried) {
      if (sdk === '@kubernetes/client-node') continue;
      if (sdk.startsWith('@google-cloud/')) {
        if (!googleRole) notCallable.push(sdk);
        continue;
      }
      const service = SERVICE[sdk];
      if (!service)
        throw new Error(`${sdk}: no IAM service prefix for it in bundle-contents.test.ts SERVICE`);
      if (![...actions].some((a) => a.startsWith(`${service}:`))) notCallable.push(sdk);
    }
    expect(notCallable.sort()).toEqual([...(CARRIED_NOT_CALLABLE[name] ?? [])]);
    if (carried.has('@google-cloud/compute'))
      expect(atColdStart.has('@google-cloud/compute')).toBe(GOOGLE_AT_COLD_START.has(name));
    else expect(googleRole).toBe(false);
  });
});
