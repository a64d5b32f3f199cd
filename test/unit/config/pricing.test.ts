// The pricing function's config: no Kubernetes access needed, the GCP group all or nothing, every bad
// variable named at once.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config/errors.ts';
import { pricingConfig } from '../../../shared/config/pricing.ts';

const common = {
  KRAFTSMAN_CLUSTER_NAME: 'prod-gpu',
  AWS_REGION: 'us-east-1',
  KRAFTSMAN_TABLE_NAME: 'kraftsman-state',
};

describe('pricing config', () => {
  it('needs no cluster access and prices AWS alone when no GCP variable is set', () => {
    const c = pricingConfig(common);
    expect(c).toMatchObject({
      clusterName: 'prod-gpu',
      store: { region: 'us-east-1', tableName: 'kraftsman-state' },
      ec2: { clusterName: 'prod-gpu', region: 'us-east-1' },
      observability: { service: 'pricing', logLevel: 'INFO' },
    });
    expect(c.gce).toBeUndefined();
  });

  it('prices Compute Engine too with the whole GCP group', () => {
    const c = pricingConfig({
      ...common,
      KRAFTSMAN_GCP_PROJECT: 'ml-prod',
      KRAFTSMAN_GCP_REGION: 'us-central1',
      KRAFTSMAN_GCP_ZONES: 'us-central1-a,us-central1-b',
      KRAFTSMAN_GCP_CREDENTIALS: '{"type":"external_account"}',
    });
    expect(c.gce).toMatchObject({ project: 'ml-prod', zones: ['us-central1-a', 'us-central1-b'] });
  });

  it('names every bad variable at once: a partial GCP group and a bad cluster name', () => {
    let error: unknown;
    try {
      pricingConfig({ ...common, KRAFTSMAN_CLUSTER_NAME: 'Prod_GPU', KRAFTSMAN_GCP_PROJECT: 'ml-prod' });
    } catch (e: unknown) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = String(error);
    for (const key of [
      'KRAFTSMAN_CLUSTER_NAME',
      'KRAFTSMAN_GCP_REGION',
      'KRAFTSMAN_GCP_ZONES',
      'KRAFTSMAN_GCP_CREDENTIALS',
    ])
      expect(message).toContain(key);
    expect(message).toContain('pricing function');
  });
});
