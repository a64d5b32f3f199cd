// launch-gcp's dependencies, built once per container: the Compute Engine provider behind the shared launch use case.
import { launchGcpConfig } from '../../shared/config/launch-gcp.ts';
import {
  buildGceProvider,
  composeLaunchDeps,
  oncePerContainer,
  type LaunchHandlerDeps,
} from '../compose/index.ts';

export function buildLaunchGcpDeps(env: Readonly<Record<string, string | undefined>>): LaunchHandlerDeps {
  const config = launchGcpConfig(env);
  return composeLaunchDeps(config, ({ time, obs, deployment }) =>
    buildGceProvider(config.gce, time.clock, obs.logger, undefined, undefined, undefined, deployment),
  );
}

export const launchGcpDeps = oncePerContainer(() => buildLaunchGcpDeps(process.env));
