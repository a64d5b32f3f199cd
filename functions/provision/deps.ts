// The provision function's dependencies, built once per container: config from process.env, the cluster,
// the state store, both clouds' instance types priced from the stored book (functions/compose/instance-types.ts), the launch invoker, logs and metrics.
import type { ProvisionDeps } from '../../shared/loop/provision.ts';
import { provisionConfig, type ProvisionConfig } from '../../shared/config/provision.ts';
import {
  buildCluster,
  passInstanceTypes,
  buildInvoker,
  buildObservability,
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
      instanceTypes: passInstanceTypes(config, time.clock, obs),
      ...time,
      logger: obs.logger,
      metrics: obs.metrics,
    },
    settings: config,
    obs,
  };
}

export const provisionDeps = oncePerContainer(() => buildProvisionDeps(process.env));
