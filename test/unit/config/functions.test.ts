// The functions' config schemas: a good environment parses into the settings the builders take, and a bad
// one fails once with every bad variable named.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config/errors.ts';
import { launchAwsConfig } from '../../../shared/config/launch-aws.ts';
import { launchGcpConfig } from '../../../shared/config/launch-gcp.ts';
import { provisionConfig } from '../../../shared/config/provision.ts';

const common = {
  KRAFTSMAN_CLUSTER_NAME: 'prod-gpu',
  AWS_REGION: 'us-east-1',
  KRAFTSMAN_TABLE_NAME: 'kraftsman-state',
  KRAFTSMAN_KUBE_SERVER: 'https://api.prod-gpu.example.internal:6443',
  KRAFTSMAN_KUBE_TOKEN: 'token',
};
const gcp = {
  KRAFTSMAN_GCP_PROJECT: 'ml-prod',
  KRAFTSMAN_GCP_REGION: 'us-central1',
  KRAFTSMAN_GCP_ZONES: 'us-central1-a, us-central1-b',
  KRAFTSMAN_GCP_CREDENTIALS: '{"type":"external_account"}',
};
const launchers = {
  KRAFTSMAN_LAUNCH_AWS_FUNCTION: 'launch-aws',
  KRAFTSMAN_LAUNCH_GCP_FUNCTION: 'launch-gcp',
};

const failure = (run: () => unknown): ConfigError => {
  try {
    run();
  } catch (err: unknown) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
};

describe('function config', () => {
  it('provision: defaults follow Karpenter (1 s idle, 10 s max) and a 14-minute watch', () => {
    const c = provisionConfig({ ...common, ...launchers });
    expect(c.watch).toMatchObject({ windowMs: 840_000, idleMs: 1_000, maxMs: 10_000 });
    expect(c.gce).toBeUndefined();
    expect(c.invoker.functions).toEqual({ 'launch-aws': 'launch-aws', 'launch-gcp': 'launch-gcp' });
  });

  it('provision: reads the GCP group when present, with the zones as a list', () => {
    const c = provisionConfig({ ...common, ...launchers, ...gcp, KRAFTSMAN_BATCH_IDLE: '250ms' });
    expect(c.gce?.zones).toEqual(['us-central1-a', 'us-central1-b']);
    expect(c.watch.idleMs).toBe(250);
  });

  it('provision: names every bad variable at once', () => {
    const err = failure(() =>
      provisionConfig({
        ...common,
        KRAFTSMAN_CLUSTER_NAME: 'Prod_GPU',
        KRAFTSMAN_KUBE_SERVER: 'not a url',
        KRAFTSMAN_BATCH_IDLE: 'soon',
        KRAFTSMAN_GCP_PROJECT: 'ml-prod',
        KRAFTSMAN_LAUNCH_AWS_FUNCTION: 'launch-aws',
      }),
    );
    expect(err.keys).toEqual(
      expect.arrayContaining([
        'KRAFTSMAN_CLUSTER_NAME',
        'KRAFTSMAN_KUBE_SERVER',
        'KRAFTSMAN_BATCH_IDLE',
        'KRAFTSMAN_LAUNCH_GCP_FUNCTION',
        'KRAFTSMAN_GCP_REGION',
        'KRAFTSMAN_GCP_ZONES',
        'KRAFTSMAN_GCP_CREDENTIALS',
      ]),
    );
    expect(err.message).toMatch(/KRAFTSMAN_BATCH_IDLE: "soon" is not a duration/);
  });

  it('launch-aws needs only the common variables; launch-gcp needs the GCP group', () => {
    expect(launchAwsConfig(common).unavailableTtlMs).toBe(180_000);
    expect(failure(() => launchGcpConfig(common)).keys).toEqual(
      expect.arrayContaining(['KRAFTSMAN_GCP_PROJECT', 'KRAFTSMAN_GCP_CREDENTIALS']),
    );
    expect(launchGcpConfig({ ...common, ...gcp }).gce.project).toBe('ml-prod');
  });

  it('points Compute Engine at a loopback emulator only (KRAFTSMAN_GCE_ENDPOINT, tests)', () => {
    expect(launchGcpConfig({ ...common, ...gcp }).gce).not.toHaveProperty('endpoint');
    const local = { ...common, ...gcp, KRAFTSMAN_GCE_ENDPOINT: 'http://127.0.0.1:8089' };
    expect(launchGcpConfig(local).gce.endpoint).toEqual({ host: '127.0.0.1', port: 8089 });
    for (const remote of ['http://compute.example.com:80', 'https://127.0.0.1:8089', 'http://127.0.0.1'])
      expect(failure(() => launchGcpConfig({ ...local, KRAFTSMAN_GCE_ENDPOINT: remote })).keys).toEqual([
        'KRAFTSMAN_GCE_ENDPOINT',
      ]);
  });
});
