// launch-aws's dependencies, built once per container: the EC2 provider behind the shared launch use case.
import { launchAwsConfig } from '../../shared/config/launch-aws.ts';
import {
  buildCluster,
  buildEc2Provider,
  buildObservability,
  buildStateStore,
  buildTime,
  oncePerContainer,
} from '../compose/index.ts';
import type { LaunchHandlerDeps } from '../compose/launch-handler.ts';

export function buildLaunchAwsDeps(env: Readonly<Record<string, string | undefined>>): LaunchHandlerDeps {
  const config = launchAwsConfig(env);
  const { clock } = buildTime();
  const obs = buildObservability(config.observability);
  return {
    loop: {
      cluster: buildCluster(config.cluster, obs.logger),
      store: buildStateStore(config.store, clock),
      provider: buildEc2Provider(config.ec2, clock, obs.logger),
      clock,
      logger: obs.logger,
      metrics: obs.metrics,
    },
    settings: config,
    obs,
  };
}

export const launchAwsDeps = oncePerContainer(() => buildLaunchAwsDeps(process.env));
