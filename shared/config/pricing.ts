// Settings of the pricing function (every 12 hours): the cluster whose book it writes, the state table, and
// the clouds it prices (GCP all or nothing, as elsewhere). It never talks to Kubernetes, so no cluster access.
import { z } from 'zod';
import { commonEnv, gcpEnv, wantsGcp } from './function-env.ts';
import { parseConfig } from './parse.ts';

const {
  KRAFTSMAN_KUBE_SERVER,
  KRAFTSMAN_KUBE_SECRET,
  KRAFTSMAN_SECRETS_ENDPOINT,
  KRAFTSMAN_KUBE_TOKEN,
  ...base
} = commonEnv;
void [KRAFTSMAN_KUBE_SERVER, KRAFTSMAN_KUBE_SECRET, KRAFTSMAN_SECRETS_ENDPOINT, KRAFTSMAN_KUBE_TOKEN];

export const pricingEnvSchema = z.object({ ...base });

export function pricingConfig(env: Readonly<Record<string, string | undefined>>) {
  const gcp = wantsGcp(env)
    ? parseConfig(pricingEnvSchema.extend(gcpEnv), env, 'pricing function')
    : undefined;
  const e = gcp ?? parseConfig(pricingEnvSchema, env, 'pricing function');
  return {
    clusterName: e.KRAFTSMAN_CLUSTER_NAME,
    store: {
      region: e.AWS_REGION,
      tableName: e.KRAFTSMAN_TABLE_NAME,
      ...(e.KRAFTSMAN_DYNAMODB_ENDPOINT ? { endpoint: e.KRAFTSMAN_DYNAMODB_ENDPOINT } : {}),
    },
    observability: {
      service: 'pricing',
      clusterName: e.KRAFTSMAN_CLUSTER_NAME,
      namespace: e.KRAFTSMAN_METRICS_NAMESPACE,
      logLevel: e.KRAFTSMAN_LOG_LEVEL,
    },
    ec2: { clusterName: e.KRAFTSMAN_CLUSTER_NAME, region: e.AWS_REGION },
    gce: gcp
      ? {
          clusterName: gcp.KRAFTSMAN_CLUSTER_NAME,
          project: gcp.KRAFTSMAN_GCP_PROJECT,
          region: gcp.KRAFTSMAN_GCP_REGION,
          zones: gcp.KRAFTSMAN_GCP_ZONES,
          credentials: gcp.KRAFTSMAN_GCP_CREDENTIALS,
        }
      : undefined,
  };
}
export type PricingConfig = ReturnType<typeof pricingConfig>;
