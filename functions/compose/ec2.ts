// Builds the EC2 CloudProvider: EC2 and Pricing clients once per container (SDK attempts 1, adapter retries).
import { createEc2Clients, type Ec2Clients } from '../../shared/adapters/aws-ec2/clients.ts';
import { parseEc2ProviderConfig, type Ec2ProviderConfig } from '../../shared/config/aws-ec2.ts';
import { Ec2CloudProvider } from '../../shared/adapters/aws-ec2/provider.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Logger } from '../../shared/ports/logger.ts';
import type { Closer, Credentials } from './local.ts';

export interface Ec2Settings {
  readonly clusterName: string;
  readonly region: string;
  /** A local endpoint (the EC2 emulator); AWS's own otherwise. */
  readonly endpoint?: string;
  readonly retry?: { attempts: number; baseDelayMs: number; maxDelayMs: number };
}

/** The adapter's config and its EC2 + Pricing clients (the provider and the price source each take one pair). */
export function ec2Clients(
  settings: Ec2Settings,
  credentials?: Credentials,
  closer?: Closer,
): Omit<Ec2Clients, 'destroy'> & { readonly config: Ec2ProviderConfig } {
  const config = parseEc2ProviderConfig({
    clusterName: settings.clusterName,
    region: settings.region,
    ...(settings.retry ? { retry: settings.retry } : {}),
  });
  const local = settings.endpoint && credentials ? { endpoint: settings.endpoint, credentials } : undefined;
  const { ec2, pricing, destroy } = createEc2Clients(config, local);
  closer?.add(destroy);
  return { ec2, pricing, config };
}

export function buildEc2Provider(
  settings: Ec2Settings,
  clock: Clock,
  logger: Logger,
  credentials?: Credentials,
  closer?: Closer,
): Ec2CloudProvider {
  return new Ec2CloudProvider({ ...ec2Clients(settings, credentials, closer), clock, logger });
}
