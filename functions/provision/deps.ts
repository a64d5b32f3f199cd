// The provision function's dependencies, built once per container: config from process.env, the cluster,
// the state store, both clouds' instance types priced from the stored book (functions/compose/instance-types.ts), the launch invoker, logs and metrics.
import type { ProvisionDeps } from '../../shared/loop/provision.ts';
import { provisionConfig, type ProvisionConfig } from '../../shared/config/provision.ts';
import {
  composeDeps,
  leasedPorts,
  passInstanceTypes,
  buildInvoker,
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
  return composeDeps(config, (base) => ({
    ...leasedPorts(base),
    invoker: buildInvoker(config.invoker),
    instanceTypes: passInstanceTypes(config, base.time.clock, base.obs),
  }));
}

export const provisionDeps = oncePerContainer(() => buildProvisionDeps(process.env));
