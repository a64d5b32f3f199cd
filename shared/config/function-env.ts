// What every kraftsman function reads from its environment: the cluster it manages, the state table, the
// Kubernetes API server (reached from outside the cluster), logging and metrics, and each cloud it talks to.
// The variable names are the keys a ConfigError names.
import { z } from 'zod';
import { commaList, required, url } from './env.ts';
import { ConfigError } from './errors.ts';
import { TAG_KEY, TAG_VALUE } from './gcp-compute.ts';

export const commonEnv = {
  KRAFTSMAN_CLUSTER_NAME: required('KRAFTSMAN_CLUSTER_NAME').regex(
    /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/,
    'must be a DNS label (lowercase letters, digits, "-"): it becomes a GCE label value',
  ),
  AWS_REGION: required('AWS_REGION'),
  KRAFTSMAN_TABLE_NAME: required('KRAFTSMAN_TABLE_NAME'),
  KRAFTSMAN_DYNAMODB_ENDPOINT: url('KRAFTSMAN_DYNAMODB_ENDPOINT').optional(),
  KRAFTSMAN_KUBE_SERVER: url('KRAFTSMAN_KUBE_SERVER'),
  /** Deployed: the Secrets Manager secret holding the kubeconfig (with the cluster's CA), read at cold start. */
  KRAFTSMAN_KUBE_SECRET: z.string().trim().min(1).optional(),
  /** A local Secrets Manager endpoint (tests); AWS's own otherwise. */
  KRAFTSMAN_SECRETS_ENDPOINT: url('KRAFTSMAN_SECRETS_ENDPOINT').optional(),
  /** Tests and the local fleet only (the emulated API server): a bearer token in the environment. */
  KRAFTSMAN_KUBE_TOKEN: z.string().trim().min(1).optional(),
  KRAFTSMAN_LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
  KRAFTSMAN_METRICS_NAMESPACE: z.string().min(1).default('kraftsman'),
  /** The deployment's AWS account: an EC2 instance another account owns is never terminated (docs/mechanisms/identity.md). */
  KRAFTSMAN_AWS_ACCOUNT_ID: z
    .string()
    .regex(/^\d{12}$/, 'must be a 12-digit AWS account id')
    .optional(),
  /** The cluster's Kubernetes minor version, for image aliases (docs/mechanisms/images.md); empty means unset. */
  KRAFTSMAN_KUBERNETES_VERSION: z
    .string()
    .trim()
    .regex(/^(1\.\d+)?$/, 'must be a Kubernetes minor version such as 1.33')
    .optional(),
};

/** The Compute Engine side, for functions that talk to Google Cloud. */
export const gcpEnv = {
  KRAFTSMAN_GCP_PROJECT: required('KRAFTSMAN_GCP_PROJECT'),
  KRAFTSMAN_GCP_REGION: required('KRAFTSMAN_GCP_REGION'),
  KRAFTSMAN_GCP_ZONES: commaList,
  /** The workload identity federation config (external_account JSON); service-account keys are refused. */
  KRAFTSMAN_GCP_CREDENTIALS: required('KRAFTSMAN_GCP_CREDENTIALS'),
  /**
   * The Resource Manager tag every launched instance is bound to, both or neither: an IAM condition on it
   * confines deletes to this deployment's instances (docs/deploy.md, "Confining deletes").
   */
  KRAFTSMAN_GCP_TAG_KEY: z
    .string()
    .trim()
    .regex(TAG_KEY, 'must be a tag key id, tagKeys/<number> (gcloud resource-manager tags keys describe)')
    .optional(),
  KRAFTSMAN_GCP_TAG_VALUE: z
    .string()
    .trim()
    .regex(
      TAG_VALUE,
      'must be a tag value id, tagValues/<number> (gcloud resource-manager tags values describe)',
    )
    .optional(),
  /** Tests only: the Compute Engine emulator, plain http on the loopback (the bundle smoke tests). */
  KRAFTSMAN_GCE_ENDPOINT: url('KRAFTSMAN_GCE_ENDPOINT')
    .refine((u) => /^http:\/\/(127\.0\.0\.1|localhost):\d+\/?$/.test(u), {
      message: 'must be http://127.0.0.1:PORT (a local emulator; Google is reached over https by default)',
    })
    .optional(),
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
    cluster: clusterAccess(env, service),
    observability: {
      service,
      clusterName: env.KRAFTSMAN_CLUSTER_NAME,
      namespace: env.KRAFTSMAN_METRICS_NAMESPACE,
      logLevel: env.KRAFTSMAN_LOG_LEVEL,
    },
    ec2: {
      clusterName: env.KRAFTSMAN_CLUSTER_NAME,
      region: env.AWS_REGION,
      ...(env.KRAFTSMAN_AWS_ACCOUNT_ID ? { accountId: env.KRAFTSMAN_AWS_ACCOUNT_ID } : {}),
      ...(env.KRAFTSMAN_KUBERNETES_VERSION ? { kubernetesVersion: env.KRAFTSMAN_KUBERNETES_VERSION } : {}),
    },
  };
}

/** Exactly one way in: the kubeconfig secret (deployed) or a token (tests); never both, never neither. */
function clusterAccess(env: Common, service: string) {
  const server = env.KRAFTSMAN_KUBE_SERVER;
  if (env.KRAFTSMAN_KUBE_SECRET && !env.KRAFTSMAN_KUBE_TOKEN)
    return {
      server,
      secret: {
        secretId: env.KRAFTSMAN_KUBE_SECRET,
        region: env.AWS_REGION,
        ...(env.KRAFTSMAN_SECRETS_ENDPOINT ? { endpoint: env.KRAFTSMAN_SECRETS_ENDPOINT } : {}),
      },
    };
  if (env.KRAFTSMAN_KUBE_TOKEN && !env.KRAFTSMAN_KUBE_SECRET)
    return { server, token: env.KRAFTSMAN_KUBE_TOKEN };
  throw new ConfigError(
    `invalid ${service} function config: KRAFTSMAN_KUBE_SECRET: set exactly one of KRAFTSMAN_KUBE_SECRET (the kubeconfig secret, deployed) and KRAFTSMAN_KUBE_TOKEN (tests only)`,
    ['KRAFTSMAN_KUBE_SECRET', 'KRAFTSMAN_KUBE_TOKEN'],
  );
}

export function gcpSettings(env: Common & Gcp) {
  return {
    clusterName: env.KRAFTSMAN_CLUSTER_NAME,
    project: env.KRAFTSMAN_GCP_PROJECT,
    region: env.KRAFTSMAN_GCP_REGION,
    zones: env.KRAFTSMAN_GCP_ZONES,
    credentials: env.KRAFTSMAN_GCP_CREDENTIALS,
    ...deploymentTag(env),
    ...(env.KRAFTSMAN_GCE_ENDPOINT ? { endpoint: loopback(env.KRAFTSMAN_GCE_ENDPOINT) } : {}),
  };
}

/** Both or neither: a key without its value (or the reverse) would bind nothing and fail every conditioned delete. */
function deploymentTag(env: Gcp): { deploymentTag?: { key: string; value: string } } {
  const key = env.KRAFTSMAN_GCP_TAG_KEY;
  const value = env.KRAFTSMAN_GCP_TAG_VALUE;
  if (key && value) return { deploymentTag: { key, value } };
  if (!key && !value) return {};
  const [set, missing] = key
    ? ['KRAFTSMAN_GCP_TAG_KEY', 'KRAFTSMAN_GCP_TAG_VALUE']
    : ['KRAFTSMAN_GCP_TAG_VALUE', 'KRAFTSMAN_GCP_TAG_KEY'];
  throw new ConfigError(
    `invalid GCP config: ${missing}: is required when ${set} is set (the deployment tag takes both, or neither)`,
    [missing],
  );
}

const loopback = (u: string) => {
  const { hostname, port } = new URL(u);
  return { host: hostname, port: Number(port) };
};
