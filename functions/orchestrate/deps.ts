// orchestrate's dependencies, built once per container: the cluster, the store (commands, its lease, the
// negative-cache epoch), and the providers of both clouds that terminate a command's instances.
import { orchestrateConfig, type OrchestrateConfig } from '../../shared/config/orchestrate.ts';
import type { OrchestrateDeps } from '../../shared/loop/orchestrate.ts';
import type { CloudProvider } from '../../shared/ports/cloud-provider/index.ts';
import {
  buildCluster,
  buildEc2Provider,
  buildGceProvider,
  buildObservability,
  buildStateStore,
  buildTime,
  oncePerContainer,
  type InvocationObservability,
} from '../compose/index.ts';

export interface OrchestrateHandlerDeps {
  readonly loop: OrchestrateDeps & { readonly nonce: () => string };
  readonly settings: Pick<
    OrchestrateConfig,
    'clusterName' | 'leaseTtlMs' | 'replacementTimeoutMs' | 'admissionGraceMs'
  >;
  readonly obs: InvocationObservability;
}

export function buildOrchestrateDeps(
  env: Readonly<Record<string, string | undefined>>,
): OrchestrateHandlerDeps {
  const config = orchestrateConfig(env);
  const time = buildTime();
  const obs = buildObservability(config.observability);
  const providers: CloudProvider[] = [buildEc2Provider(config.ec2, time.clock, obs.logger)];
  if (config.gce) providers.push(buildGceProvider(config.gce, time.clock, obs.logger));
  return {
    loop: {
      cluster: buildCluster(config.cluster, obs.logger),
      store: buildStateStore(config.store, time.clock),
      providers: new Map(providers.map((p) => [p.cloud, p])),
      ...time,
      logger: obs.logger,
      metrics: obs.metrics,
    },
    settings: config,
    obs,
  };
}

export const orchestrateDeps = oncePerContainer(() => buildOrchestrateDeps(process.env));
