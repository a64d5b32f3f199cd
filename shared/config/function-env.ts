// What every kraftsman function reads from its environment: the cluster it manages, the state table, the
// Kubernetes API server (reached from outside the cluster), logging and metrics, and each cloud it talks to.
// The variable names are the keys a ConfigError names.
import { z } from 'zod';
import { commaList, required, url } from './env.ts';

export const commonEnv = {
  KRAFTSMAN_CLUSTER_NAME: required('KRAFTSMAN_CLUSTER_NAME').regex(
    /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/,
    'must be a DNS label (lowercase letters, digits, "-"): it becomes a GCE label value',
  ),
  AWS_REGION: required('AWS_REGION'),
  KRAFTSMAN_TABLE_NAME: required('KRAFTSMAN_TABLE_NAME'),
  KRAFTSMAN_DYNAMODB_ENDPOINT: url('KRAFTSMAN_DYNAMODB_ENDPOINT').optional(),
  KRAFTSMAN_KUBE_SERVER: url('KRAFTSMAN_KUBE_SERVER'),
  /** Deployed from a secret; never logged. */
  KRAFTSMAN_KUBE_TOKEN: required('KRAFTSMAN_KUBE_TOKEN'),
  KRAFTSMAN_LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  KRAFTSMAN_METRICS_NAMESPACE: z.string().min(1).default('kraftsman'),
};

/** The Compute Engine side, for functions that talk to Google Cloud. */
export const gcpEnv = {
  KRAFTSMAN_GCP_PROJECT: required('KRAFTSMAN_GCP_PROJECT'),
  KRAFTSMAN_GCP_REGION: required('KRAFTSMAN_GCP_REGION'),
  KRAFTSMAN_GCP_ZONES: commaList,
  /** The workload identity federation config (external_account JSON); service-account keys are refused. */
  KRAFTSMAN_GCP_CREDENTIALS: required('KRAFTSMAN_GCP_CREDENTIALS'),
};

/** True when any KRAFTSMAN_GCP_* variable is set: then all of them are required (and each missing one named). */
export function wantsGcp(env: Readonly<Record<string, string | undefined>>): boolean {
  return Object.keys(gcpEnv).some((k) => env[k] !== undefined);
}

type Common = z.output<z.ZodObject<typeof commonEnv>>;
type Gcp = z.output<z.ZodObject<typeof gcpEnv>>;

/** The settings the compose builders take, from the parsed common variables. */
export function commonSettings(env: Common, service: string) {
  return {
    clusterName: env.KRAFTSMAN_CLUSTER_NAME,
    region: env.AWS_REGION,
    store: {
      region: env.AWS_REGION,
      tableName: env.KRAFTSMAN_TABLE_NAME,
      ...(env.KRAFTSMAN_DYNAMODB_ENDPOINT ? { endpoint: env.KRAFTSMAN_DYNAMODB_ENDPOINT } : {}),
    },
    cluster: {
      server: env.KRAFTSMAN_KUBE_SERVER,
      token: env.KRAFTSMAN_KUBE_TOKEN,
    },
    observability: {
      service,
      clusterName: env.KRAFTSMAN_CLUSTER_NAME,
      namespace: env.KRAFTSMAN_METRICS_NAMESPACE,
      logLevel: env.KRAFTSMAN_LOG_LEVEL,
    },
    ec2: { clusterName: env.KRAFTSMAN_CLUSTER_NAME, region: env.AWS_REGION },
  };
}

export function gcpSettings(env: Common & Gcp) {
  return {
    clusterName: env.KRAFTSMAN_CLUSTER_NAME,
    project: env.KRAFTSMAN_GCP_PROJECT,
    region: env.KRAFTSMAN_GCP_REGION,
    zones: env.KRAFTSMAN_GCP_ZONES,
    credentials: env.KRAFTSMAN_GCP_CREDENTIALS,
  };
}
