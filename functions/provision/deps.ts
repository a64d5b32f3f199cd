// The provision function's dependencies, built once per container: config from process.env, the cluster,
// the state store, both clouds' instance types priced from the stored book (functions/compose/instance-types.ts), the launch invoker, logs and metrics.
import type { ProvisionDeps } from '../../shared/loop/provision.ts';
import { provisionConfig, type ProvisionConfig } from '../../shared/config/provision.ts';
import {
  buildCluster,
  buildEc2Provider,
  buildGceProvider,
  buildInstanceTypes,
  buildInvoker,
  buildObservability,
  buildPriceStore,
  buildStateStore,
  buildTime,
  oncePerContainer,
  type InvocationObservability,
} from '../compose/index.ts';

export interface ProvisionHandlerDeps {
  readonly loop: ProvisionDeps;
  readonly settings: Pick<ProvisionConfig, 'clusterName' | 'leaseTtlMs' | 'watch' | 'batch'>;
  readonly obs: InvocationObservability;
}

export function buildProvisionDeps(env: Readonly<Record<string, string | undefined>>): ProvisionHandlerDeps {
  const config = provisionConfig(env);
  const time = buildTime();
  const obs = buildObservability(config.observability);
  return {
    loop: {
      cluster: buildCluster(config.cluster, obs.logger),
      store: buildStateStore(config.store, time.clock),
      invoker: buildInvoker(config.invoker),
      instanceTypes: buildInstanceTypes({
        clusterName: config.clusterName,
        providers: {
          aws: buildEc2Provider(config.ec2, time.clock, obs.logger),
          ...(config.gce ? { gcp: buildGceProvider(config.gce, time.clock, obs.logger) } : {}),
        },
        prices: buildPriceStore(config.store),
        ttlMs: config.instanceTypesTtlMs,
        clock: time.clock,
        metrics: obs.metrics,
        logger: obs.logger,
      }),
      ...time,
      logger: obs.logger,
      metrics: obs.metrics,
    },
    settings: config,
    obs,
  };
}

export const provisionDeps = oncePerContainer(() => buildProvisionDeps(process.env));
