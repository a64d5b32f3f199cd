// launch-aws's dependencies, built once per container: the EC2 provider behind the shared launch use case.
import { launchAwsConfig } from '../../shared/config/launch-aws.ts';
import {
  baseDeployment,
  buildEc2Provider,
  composeLaunchDeps,
  oncePerContainer,
  type LaunchHandlerDeps,
} from '../compose/index.ts';

export function buildLaunchAwsDeps(env: Readonly<Record<string, string | undefined>>): LaunchHandlerDeps {
  const config = launchAwsConfig(env);
  return composeLaunchDeps(config, (base) =>
    buildEc2Provider(
      config.ec2,
      base.time.clock,
      base.obs.logger,
      undefined,
      undefined,
      undefined,
      baseDeployment(base, config),
    ),
  );
}

export const launchAwsDeps = oncePerContainer(() => buildLaunchAwsDeps(process.env));
