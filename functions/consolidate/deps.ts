// The consolidate function's dependencies, built once per container: config from process.env, the cluster
// (whose snapshot reader keeps resourceVersions, so a warm container catches up instead of listing), the
// store, both clouds' instance types with their prices, the admit invoker, logs and metrics.
import { consolidateConfig, type ConsolidateConfig } from '../../shared/config/consolidate.ts';
import type { ConsolidateDeps } from '../../shared/loop/consolidate.ts';
import type { Invoker } from '../../shared/ports/invoker.ts';
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

export interface ConsolidateHandlerDeps {
  /** Everything but the hand-off (bound to the invocation's pass id) and the lease's timer and logger. */
  readonly loop: Omit<ConsolidateDeps, 'handOff' | 'timer' | 'logger'> & {
    readonly invoker: Invoker;
    readonly nonce: () => string;
  };
  readonly settings: Pick<ConsolidateConfig, 'clusterName' | 'options' | 'leaseTtlMs'>;
  readonly obs: InvocationObservability;
}

export function buildConsolidateDeps(
  env: Readonly<Record<string, string | undefined>>,
): ConsolidateHandlerDeps {
  const config = consolidateConfig(env);
  const time = buildTime();
  const obs = buildObservability(config.observability);
  const types = passInstanceTypes(config, time.clock, obs);
  return {
    loop: {
      cluster: buildCluster(config.cluster, obs.logger),
      store: buildStateStore(config.store, time.clock),
      invoker: buildInvoker(config.invoker),
      instanceTypes: types.forPools,
      clock: time.clock,
      nonce: time.nonce,
      metrics: obs.metrics,
    },
    settings: config,
    obs,
  };
}

export const consolidateDeps = oncePerContainer(() => buildConsolidateDeps(process.env));
