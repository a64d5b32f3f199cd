// The functions' config schemas: a good environment parses into the settings the builders take, and a bad
// one fails once with every bad variable named.
import { describe, expect, it } from 'vitest';
import { launchAwsConfig } from '../../../shared/config/launch-aws.ts';
import { launchGcpConfig } from '../../../shared/config/launch-gcp.ts';
import { orchestrateConfig } from '../../../shared/config/orchestrate.ts';
import { parseGceProviderConfig } from '../../../shared/config/gcp-compute.ts';
import { provisionConfig } from '../../../shared/config/provision.ts';
import { COMMON_ENV, GCP_ENV, LAUNCHER_ENV, configFailure } from '../../fixtures/config-env.ts';

describe('function config', () => {
  it('provision: defaults follow Karpenter (1 s idle, 10 s max) and a 14-minute watch', () => {
    const c = provisionConfig({ ...COMMON_ENV, ...LAUNCHER_ENV });
    expect(c.watch).toMatchObject({ windowMs: 840_000, idleMs: 1_000, maxMs: 10_000 });
    expect(c.gce).toBeUndefined();
    expect(c.invoker.functions).toEqual({
      'launch-aws': 'kraftsman-launch-aws',
      'launch-gcp': 'kraftsman-launch-gcp',
    });
  });

  it('provision: reads the GCP group when present, with the zones as a list', () => {
    const c = provisionConfig({ ...COMMON_ENV, ...LAUNCHER_ENV, ...GCP_ENV, KRAFTSMAN_BATCH_IDLE: '250ms' });
    expect(c.gce?.zones).toEqual(['us-central1-a', 'us-central1-b']);
    expect(c.watch.idleMs).toBe(250);
  });

  it('provision: names every bad variable at once', () => {
    const err = configFailure(() =>
      provisionConfig({
        ...COMMON_ENV,
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
    expect(launchAwsConfig(COMMON_ENV).unavailableTtlMs).toBe(180_000);
    expect(configFailure(() => launchGcpConfig(COMMON_ENV)).keys).toEqual(
      expect.arrayContaining(['KRAFTSMAN_GCP_PROJECT', 'KRAFTSMAN_GCP_CREDENTIALS']),
    );
    expect(launchGcpConfig({ ...COMMON_ENV, ...GCP_ENV }).gce.project).toBe('ml-prod');
  });

  it('points Compute Engine at a loopback emulator only (KRAFTSMAN_GCE_ENDPOINT, tests)', () => {
    expect(launchGcpConfig({ ...COMMON_ENV, ...GCP_ENV }).gce).not.toHaveProperty('endpoint');
    const local = { ...COMMON_ENV, ...GCP_ENV, KRAFTSMAN_GCE_ENDPOINT: 'http://127.0.0.1:8089' };
    expect(launchGcpConfig(local).gce.endpoint).toEqual({ host: '127.0.0.1', port: 8089 });
    for (const remote of ['http://compute.example.com:80', 'https://127.0.0.1:8089', 'http://127.0.0.1'])
      expect(configFailure(() => launchGcpConfig({ ...local, KRAFTSMAN_GCE_ENDPOINT: remote })).keys).toEqual(
        ['KRAFTSMAN_GCE_ENDPOINT'],
      );
  });

  it('takes the deployment tag (KRAFTSMAN_GCP_TAG_KEY / _VALUE) as ids, both or neither, into the GCE settings', () => {
    const tag = {
      KRAFTSMAN_GCP_TAG_KEY: 'tagKeys/281475512345678',
      KRAFTSMAN_GCP_TAG_VALUE: 'tagValues/2814799',
    };
    const env = { ...COMMON_ENV, ...GCP_ENV };
    expect(launchGcpConfig({ ...env, ...tag }).gce.deploymentTag).toEqual({
      key: 'tagKeys/281475512345678',
      value: 'tagValues/2814799',
    });
    expect(orchestrateConfig({ ...env, ...tag }).gce?.deploymentTag?.key).toBe('tagKeys/281475512345678');
    expect(launchGcpConfig(env).gce).not.toHaveProperty('deploymentTag');
    const onlyKey = configFailure(() =>
      launchGcpConfig({ ...env, KRAFTSMAN_GCP_TAG_KEY: tag.KRAFTSMAN_GCP_TAG_KEY }),
    );
    expect(onlyKey.keys).toEqual(['KRAFTSMAN_GCP_TAG_VALUE']);
    expect(onlyKey.message).toMatch(/KRAFTSMAN_GCP_TAG_VALUE: is required when KRAFTSMAN_GCP_TAG_KEY is set/);
    const onlyValue = configFailure(() =>
      launchGcpConfig({ ...env, KRAFTSMAN_GCP_TAG_VALUE: tag.KRAFTSMAN_GCP_TAG_VALUE }),
    );
    expect(onlyValue.keys).toEqual(['KRAFTSMAN_GCP_TAG_KEY']);
    const names = configFailure(() =>
      launchGcpConfig({
        ...env,
        KRAFTSMAN_GCP_TAG_KEY: 'ml-prod/kraftsman-deployment',
        KRAFTSMAN_GCP_TAG_VALUE: 'prod',
      }),
    );
    expect([...names.keys].sort()).toEqual(['KRAFTSMAN_GCP_TAG_KEY', 'KRAFTSMAN_GCP_TAG_VALUE']);
    expect(names.message).toMatch(/KRAFTSMAN_GCP_TAG_KEY: must be a tag key id, tagKeys\/<number>/);
  });

  it('the Compute Engine adapter refuses a deployment tag that is not ids (its config names the field)', () => {
    const base = { clusterName: 'test', project: 'p', region: 'us-central1', zones: ['us-central1-a'] };
    expect(
      parseGceProviderConfig({ ...base, deploymentTag: { key: 'tagKeys/1', value: 'tagValues/2' } })
        .deploymentTag,
    ).toEqual({ key: 'tagKeys/1', value: 'tagValues/2' });
    const err = configFailure(() =>
      parseGceProviderConfig({
        ...base,
        deploymentTag: { key: 'kraftsman-deployment', value: 'tagValues/2' },
      }),
    );
    expect(err.keys).toEqual(['deploymentTag.key']);
  });
});
