// The packaged bundles, not the sources, launch: provision (in-process) invokes launch-gcp and launch-aws,
// and each invocation runs that function's zip from `osls package` in a fresh Node process, with the
// template's environment and only the endpoints swapped for the local emulators. launch-gcp authenticates by
// workload identity federation (its AWS credentials sign the subject token) and creates the instance through
// the Compute Engine emulator; launch-aws through the EC2 emulator. lifecycle's zip runs a pass whose Compute
// Engine calls load the Google client from its own chunk (functions/compose/lazy-gce.ts). Also: the bundles carry
// only the pruned Compute Engine protos (infra/bundle/compute-protos.mjs), and the pruning covers every client
// the adapter makes.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPUTE_SERVICES } from '../../infra/bundle/compute-protos.mjs';
import { LABEL_CLUSTER } from '../../shared/adapters/gcp-compute/instances.ts';
import { nodePool, pod, startHarness, type E2eHarness } from '../support/e2e/index.ts';
import { GCE_PROJECT, GCE_ZONES } from '../support/e2e/fixtures.ts';
import { provisionOnce } from '../support/e2e/steps.ts';
import { scheduledEvent } from '../support/e2e/lambda-events.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../support/dynamodb/credentials.ts';
import { ROOT } from './support/derive.ts';
import { runBundle, unpackBundle, type BundleRun } from './support/bundle-run.ts';
import { FEDERATED_TOKEN, startGoogleSts, type GoogleSts } from './support/google-sts.ts';
import { CI_PARAMS, type Packaged } from './support/package.ts';
import { packagedService } from './support/packaged.ts';
import { environmentOf } from './support/template.ts';

/** DynamoDB Local keeps tables per access key: the harness's key, which also signs Google's subject token. */
const AWS_KEY = LOCAL_CREDENTIALS.accessKeyId;
let packaged: Packaged;
let h: E2eHarness;
let sts: GoogleSts;
const runs: Record<string, BundleRun[]> = { 'launch-aws': [], 'launch-gcp': [] };
/** Where each function's zip was unpacked: its handler file. */
const handlers: Record<string, string> = {};

/** The deployed environment of `fn`, pointed at the local servers; what Lambda itself sets, added. */
function localEnv(fn: string): Record<string, string> {
  const env = { ...environmentOf(packaged.template, fn) };
  delete env.KRAFTSMAN_KUBE_SECRET;
  const creds = env.KRAFTSMAN_GCP_CREDENTIALS;
  const local: Record<string, string> = {
    KRAFTSMAN_KUBE_SERVER: h.settings.cluster.server,
    KRAFTSMAN_KUBE_TOKEN: 'token' in h.settings.cluster ? h.settings.cluster.token : '',
    KRAFTSMAN_TABLE_NAME: h.settings.store.tableName,
    KRAFTSMAN_DYNAMODB_ENDPOINT: String(h.settings.store.endpoint),
    AWS_ENDPOINT_URL_EC2: h.ec2.endpoint,
    AWS_ENDPOINT_URL_PRICING: h.ec2.endpoint,
    // the node class's role becomes an instance profile through IAM (docs/mechanisms/instance-profiles.md)
    AWS_ENDPOINT_URL_IAM: h.iam.endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: AWS_KEY,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_LAMBDA_FUNCTION_NAME: `kraftsman-dev-${fn}`,
  };
  if (creds) {
    // The pinned Google token URLs, moved to the local stand-in; everything else as deployed.
    const c = JSON.parse(creds) as Record<string, unknown>;
    Object.assign(local, {
      KRAFTSMAN_GCP_PROJECT: GCE_PROJECT,
      KRAFTSMAN_GCP_ZONES: GCE_ZONES.join(','),
      KRAFTSMAN_GCE_ENDPOINT: `http://127.0.0.1:${h.gce.port}`,
      KRAFTSMAN_GCP_CREDENTIALS: JSON.stringify({
        ...c,
        token_url: `${sts.url}/v1/token`,
        service_account_impersonation_url: String(c.service_account_impersonation_url).replace(
          'https://iamcredentials.googleapis.com',
          sts.url,
        ),
      }),
    });
  }
  return { ...env, ...local };
}

beforeAll(async () => {
  packaged = await packagedService();
  sts = await startGoogleSts();
  h = await startHarness({
    clusterName: CI_PARAMS.cluster,
    objects: [
      nodePool('gcp-od', 'gcp', { capacityTypes: ['on-demand'], instanceTypes: ['g2-standard-4'] }),
      nodePool('aws-od', 'aws', { capacityTypes: ['on-demand'], instanceTypes: ['g5.xlarge'] }),
    ],
  });
  const dir = join(ROOT, '.tmp', `bundle-smoke-${process.pid}`);
  handlers.lifecycle = await unpackBundle(packaged.artifacts, 'lifecycle', dir);
  for (const fn of ['launch-aws', 'launch-gcp'] as const) {
    const file = await unpackBundle(packaged.artifacts, fn, dir);
    handlers[fn] = file;
    h.invoker.register(fn, async (payload) => {
      const out = await runBundle(file, payload, localEnv(fn));
      runs[fn]?.push(out);
      if (out.error) throw new Error(out.error);
      return out.result;
    });
  }
}, 600_000);
afterAll(async () => {
  await h?.close();
  await sts?.close();
  rmSync(join(ROOT, '.tmp', `bundle-smoke-${process.pid}`), { recursive: true, force: true });
});

const gpuPods = (rs: string, pool: string) => [
  pod(`${rs}-p0`, { gpus: 1, replicaSet: rs, nodeSelector: { 'karpenter.sh/nodepool': pool } }),
];
const claimsOf = (pool: string) =>
  h
    .list('NodeClaim')
    .filter((c) => (c.metadata.labels as Record<string, string>)['karpenter.sh/nodepool'] === pool);

describe('packaged bundles against the emulators', () => {
  it('launch-gcp: workload identity federation, then a Compute Engine launch, from the bundle', async () => {
    h.seed(gpuPods('gcp-bundle', 'gcp-od'));
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: 1 });
    const [run] = runs['launch-gcp'] ?? [];
    expect(run?.error).toBeUndefined();
    expect(run?.result).toMatchObject({ launched: 1 });
    const [claim] = claimsOf('gcp-od');
    const providerId = (claim?.status as { providerID?: string } | undefined)?.providerID ?? '';
    expect(providerId).toMatch(new RegExp(`^gce://${GCE_PROJECT}/us-central1-[ab]/`));
    const name = providerId.split('/').at(-1) ?? '';
    const instance = [...h.gce.world.instances.values()].find((i) => i.name === name);
    expect(instance?.resource.labels).toMatchObject({ [LABEL_CLUSTER]: CI_PARAMS.cluster });
    // The subject token is the function's AWS-signed GetCallerIdentity; the federated token was exchanged.
    const [exchange, impersonate] = sts.calls;
    expect(exchange?.path).toBe('/v1/token');
    expect(decodeURIComponent(String(exchange?.form?.subject_token))).toContain(`Credential=${AWS_KEY}/`);
    expect(impersonate?.authorization).toBe(`Bearer ${FEDERATED_TOKEN}`);
  });

  it('launch-aws: a CreateFleet launch from the bundle', async () => {
    h.seed(gpuPods('aws-bundle', 'aws-od'));
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: 1 });
    const [run] = runs['launch-aws'] ?? [];
    expect(run?.error).toBeUndefined();
    expect(run?.result).toMatchObject({ launched: 1 });
    const [claim] = claimsOf('aws-od');
    const providerId = (claim?.status as { providerID?: string } | undefined)?.providerID ?? '';
    const instance = h.ec2.world.instances.get(providerId.split('/').at(-1) ?? '');
    expect(instance?.instanceType).toBe('g5.xlarge');
    expect(instance?.tags).toMatchObject({ 'kraftsman.dev/cluster': CI_PARAMS.cluster });
  });

  it('lifecycle: its zip loads the Compute Engine client from its own chunk at its first GCP call', async () => {
    const dir = dirname(handlers.lifecycle ?? '');
    // The Google client's chunk travels in the zip, and the handler does not import it statically.
    const chunks = readdirSync(dir).filter((f) => /^handler\.gce-\w+\.mjs$/.test(f));
    expect(chunks).toHaveLength(1);
    const gceChunk = chunks[0] ?? '';
    const handler = readFileSync(join(dir, 'handler.mjs'), 'utf8');
    expect({
      staticImport: handler.includes(`from"./${gceChunk}"`),
      dynamicImport: handler.includes(`import("./${gceChunk}")`),
    }).toEqual({ staticImport: false, dynamicImport: true });
    const before = h.gce.world.calls.length;
    const run = await runBundle(handlers.lifecycle ?? '', scheduledEvent(h.clock), localEnv('lifecycle'));
    expect(run.error).toBeUndefined();
    // Preemptions (zone operations) and garbage collection (aggregated list) went through the lazy provider.
    expect(run.result).toMatchObject({ outcome: 'ran', failed: 0, errors: [] });
    const calls = h.gce.world.calls.slice(before);
    expect(calls.some((c) => c.includes('/operations'))).toBe(true);
    expect(calls.some((c) => c.includes('/aggregated/instances'))).toBe(true);
  });

  it('carry only the Compute Engine protos of the services the adapter makes clients for', () => {
    const clients = readFileSync(join(ROOT, 'shared/adapters/gcp-compute/clients.ts'), 'utf8');
    const imported = [...clients.matchAll(/compute\/build\/src\/v1\/(\w+)_client\.js/g)].map((m) =>
      (m[1] ?? '').replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase()),
    );
    expect(imported.sort()).toEqual([...COMPUTE_SERVICES].sort());
    const bundle = join(
      ROOT,
      '.tmp',
      `bundle-smoke-${process.pid}`,
      'launch-gcp',
      'functions/launch-gcp/handler.mjs',
    );
    const text = readFileSync(bundle, 'utf8');
    // v1beta's services would be there if protos.json were bundled whole.
    expect(text).not.toContain('"v1beta"');
    expect(statSync(bundle).size).toBeLessThan(8e6);
  });
});
