// Builds the EC2 CloudProvider: its EC2 client once per container (SDK attempts 1, adapter retries). It calls no
// price API: a pass or a launcher hands it the stored price book (instance-types.ts, launch-handler.ts).
import {
  createEc2Client,
  createIamClient,
  createSsmClient,
  type LocalEndpoint,
} from '../../shared/adapters/aws-ec2/clients.ts';
import { parseEc2ProviderConfig, type Ec2ProviderConfig } from '../../shared/config/aws-ec2.ts';
import { Ec2CloudProvider } from '../../shared/adapters/aws-ec2/provider.ts';
import type { DeploymentSource } from '../../shared/ports/cloud-provider/index.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Logger } from '../../shared/ports/logger.ts';
import type { PriceLookup } from '../../shared/ports/price-store.ts';
import type { Closer, Credentials } from './local.ts';

export interface Ec2Settings {
  readonly clusterName: string;
  readonly region: string;
  /** The deployment's AWS account: instances another account owns are never terminated. */
  readonly accountId?: string;
  /** A local endpoint (the EC2 emulator); AWS's own otherwise. */
  readonly endpoint?: string;
  /**
   * A local IAM endpoint (the IAM emulator, local/iam) for the instance profiles of node classes with a `role`.
   * With a local EC2 `endpoint` and no IAM one, the provider has no IAM client (only spec.instanceProfile launches);
   * against AWS it always has IAM's global endpoint.
   */
  readonly iamEndpoint?: string;
  /** A local SSM endpoint (local/ssm) for image aliases; the same rule as `iamEndpoint`. */
  readonly ssmEndpoint?: string;
  /** The cluster's Kubernetes minor version (`1.33`), for image aliases (docs/mechanisms/images.md). */
  readonly kubernetesVersion?: string;
  readonly retry?: { attempts: number; baseDelayMs: number; maxDelayMs: number };
}

/** The adapter's config from the settings, and the local endpoint when one is named (tests, the local fleet). */
export function ec2Config(
  settings: Ec2Settings,
  credentials?: Credentials,
): { readonly config: Ec2ProviderConfig; readonly local?: LocalEndpoint } {
  const config = parseEc2ProviderConfig({
    clusterName: settings.clusterName,
    region: settings.region,
    ...(settings.accountId ? { accountId: settings.accountId } : {}),
    ...(settings.retry ? { retry: settings.retry } : {}),
    ...(settings.kubernetesVersion ? { kubernetesVersion: settings.kubernetesVersion } : {}),
  });
  return settings.endpoint && credentials
    ? { config, local: { endpoint: settings.endpoint, credentials } }
    : { config };
}

/** The adapter's config and its EC2 client (the provider and the price source each take one). */
export function ec2Clients(
  settings: Ec2Settings,
  credentials?: Credentials,
  closer?: Closer,
): { readonly ec2: ReturnType<typeof createEc2Client>; readonly config: Ec2ProviderConfig } {
  const { config, local } = ec2Config(settings, credentials);
  const ec2 = createEc2Client(config, local);
  closer?.add(() => ec2.destroy());
  return { ec2, config };
}

/**
 * `prices` prices an instance-type read that brings none (tests); every function hands in the stored book.
 * `deployment` (functions/compose/deployment.ts) is what launches are tagged with and deletes are checked against.
 */
export function buildEc2Provider(
  settings: Ec2Settings,
  clock: Clock,
  logger: Logger,
  credentials?: Credentials,
  closer?: Closer,
  prices?: () => Promise<PriceLookup>,
  deployment?: DeploymentSource,
): Ec2CloudProvider {
  const clients = ec2Clients(settings, credentials, closer);
  const local =
    settings.iamEndpoint && credentials ? { endpoint: settings.iamEndpoint, credentials } : undefined;
  const iam = settings.endpoint && !local ? undefined : createIamClient(clients.config, local);
  if (iam) closer?.add(() => iam.destroy());
  const ssmLocal =
    settings.ssmEndpoint && credentials ? { endpoint: settings.ssmEndpoint, credentials } : undefined;
  const ssm = settings.endpoint && !ssmLocal ? undefined : createSsmClient(clients.config, ssmLocal);
  if (ssm) closer?.add(() => ssm.destroy());
  return new Ec2CloudProvider({
    ...clients,
    ...(iam ? { iam } : {}),
    ...(ssm ? { ssm } : {}),
    clock,
    logger,
    ...(prices ? { prices } : {}),
    ...(deployment ? { deployment } : {}),
  });
}
