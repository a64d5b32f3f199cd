// The providers of the clouds orchestrate and lifecycle terminate in, each instrumented with the cloud provider
// metrics. Its own file, not function-deps.ts: the launchers import that one, and a dynamic import anywhere in a
// bundle's import graph (lazy-gce.ts) puts the Google client's chunk in that bundle's zip.
import type { Ec2CloudProvider } from '../../shared/adapters/aws-ec2/provider.ts';
import { withCloudProviderMetrics } from '../../shared/observability/index.ts';
import type { DeploymentSource } from '../../shared/ports/cloud-provider/index.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import { buildEc2Provider, type Ec2Settings } from './ec2.ts';
import type { GceSettings } from './gce-settings.ts';
import { lazyGceProvider, type LazyGceProvider } from './lazy-gce.ts';
import type { Observability } from './observability.ts';

/**
 * The providers of the clouds a function terminates in: EC2 always, Compute Engine when configured (its client
 * loaded at its first call: lazy-gce.ts).
 */
export interface TerminatingProviders {
  readonly aws: Ec2CloudProvider;
  readonly gcp?: LazyGceProvider;
}

export function buildProviders(
  config: { readonly ec2: Ec2Settings; readonly gce?: GceSettings | undefined },
  clock: Clock,
  obs: Observability,
  deployment: DeploymentSource,
): TerminatingProviders {
  const instrument = <T extends Ec2CloudProvider | LazyGceProvider>(p: T): T =>
    withCloudProviderMetrics(p, obs.metrics, clock, obs.service);
  const aws = instrument(
    buildEc2Provider(config.ec2, clock, obs.logger, undefined, undefined, undefined, deployment),
  );
  if (!config.gce) return { aws };
  return {
    aws,
    gcp: instrument(lazyGceProvider(config.gce, clock, obs.logger, deployment)),
  };
}
