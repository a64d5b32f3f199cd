// The consolidate function's dependencies, built once per container: config from process.env, the cluster
// (whose snapshot reader keeps resourceVersions, so a warm container catches up instead of listing), the
// store, both clouds' instance types with their prices, the admit invoker, logs and metrics.
import { consolidateConfig, type ConsolidateConfig } from '../../shared/config/consolidate.ts';
import type { ConsolidateDeps } from '../../shared/loop/consolidate.ts';
import type { Invoker } from '../../shared/ports/invoker.ts';
import {
  composeDeps,
  passInstanceTypes,
  buildInvoker,
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
  return composeDeps(config, ({ time, obs, cluster, store }) => ({
    cluster,
    store,
    invoker: buildInvoker(config.invoker),
    instanceTypes: passInstanceTypes(config, time.clock, obs).forPools,
    clock: time.clock,
    nonce: time.nonce,
    metrics: obs.metrics,
  }));
}

export const consolidateDeps = oncePerContainer(() => buildConsolidateDeps(process.env));
