// launch-aws's dependencies, built once per container: the EC2 provider behind the shared launch use case.
import { launchAwsConfig } from '../../shared/config/launch-aws.ts';
// Direct imports, not the compose/index.ts barrel: a dynamic import anywhere in the import graph (lazy-gce.ts) puts
// its chunk in this function's zip.
import { oncePerContainer } from '../compose/container.ts';
import { buildEc2Provider } from '../compose/ec2.ts';
import { baseDeployment } from '../compose/function-deps.ts';
import { composeLaunchDeps, type LaunchHandlerDeps } from '../compose/launch-handler.ts';

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
