// launch-gcp's dependencies, built once per container: the Compute Engine provider behind the shared launch use case.
import { launchGcpConfig } from '../../shared/config/launch-gcp.ts';
import {
  baseDeployment,
  buildGceProvider,
  composeLaunchDeps,
  oncePerContainer,
  type LaunchHandlerDeps,
} from '../compose/index.ts';

export function buildLaunchGcpDeps(env: Readonly<Record<string, string | undefined>>): LaunchHandlerDeps {
  const config = launchGcpConfig(env);
  return composeLaunchDeps(config, (base) =>
    buildGceProvider(
      config.gce,
      base.time.clock,
      base.obs.logger,
      undefined,
      undefined,
      undefined,
      baseDeployment(base, config),
    ),
  );
}

export const launchGcpDeps = oncePerContainer(() => buildLaunchGcpDeps(process.env));
