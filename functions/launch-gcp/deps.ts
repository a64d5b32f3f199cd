// launch-gcp's dependencies, built once per container: the Compute Engine provider behind the shared launch use case.
import { launchGcpConfig } from '../../shared/config/launch-gcp.ts';
// Direct imports, not the compose/index.ts barrel: a dynamic import anywhere in the import graph (lazy-gce.ts) puts
// its chunk in this function's zip.
import { oncePerContainer } from '../compose/container.ts';
import { baseDeployment } from '../compose/function-deps.ts';
import { buildGceProvider } from '../compose/gce.ts';
import { composeLaunchDeps, type LaunchHandlerDeps } from '../compose/launch-handler.ts';

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
