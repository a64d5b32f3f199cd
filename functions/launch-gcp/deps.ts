// launch-gcp's dependencies, built once per container: the Compute Engine provider behind the shared launch use case.
import { launchGcpConfig } from '../../shared/config/launch-gcp.ts';
import {
  buildCluster,
  buildGceProvider,
  buildObservability,
  buildStateStore,
  buildTime,
  oncePerContainer,
} from '../compose/index.ts';
import type { LaunchHandlerDeps } from '../compose/launch-handler.ts';

export function buildLaunchGcpDeps(env: Readonly<Record<string, string | undefined>>): LaunchHandlerDeps {
  const config = launchGcpConfig(env);
  const { clock } = buildTime();
  const obs = buildObservability(config.observability);
  return {
    loop: {
      cluster: buildCluster(config.cluster, obs.logger),
      store: buildStateStore(config.store, clock),
      provider: buildGceProvider(config.gce, clock, obs.logger),
      clock,
      logger: obs.logger,
      metrics: obs.metrics,
    },
    settings: config,
    obs,
  };
}

export const launchGcpDeps = oncePerContainer(() => buildLaunchGcpDeps(process.env));
