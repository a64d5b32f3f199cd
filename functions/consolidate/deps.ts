// The consolidate function's dependencies, built once per container: config from process.env, the cluster
// (whose snapshot reader keeps resourceVersions, so a warm container catches up instead of listing), the
// store, both clouds' instance types with their prices, the admit invoker, logs and metrics, and the walk's
// discovery workers (docs/mechanisms/parallel-discovery.md, "In Lambda").
import { consolidateConfig, type ConsolidateConfig } from '../../shared/config/consolidate.ts';
import type { ConsolidateDeps } from '../../shared/loop/consolidate.ts';
import type { Invoker } from '../../shared/ports/invoker.ts';
import { workerWalkDiscovery } from '../../shared/adapters/workers/index.ts';
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

/**
 * `bundleEntry`: the module a discovery thread starts on when bundled. esbuild inlines this file into the
 * function's handler.mjs, so its import.meta.url is the handler's, whose top level serves discovery in a thread.
 */
export function buildConsolidateDeps(
  env: Readonly<Record<string, string | undefined>>,
  bundleEntry: string = import.meta.url,
): ConsolidateHandlerDeps {
  const config = consolidateConfig(env);
  return composeDeps(config, ({ time, obs, cluster, store }) => {
    const types = passInstanceTypes(config, time.clock, obs);
    return {
      cluster,
      store,
      invoker: buildInvoker(config.invoker),
      instanceTypes: types.forPools,
      discovery: workerWalkDiscovery({
        workers: config.discoveryWorkers,
        instanceTypes: types.specsForPools,
        bundleEntry,
      }),
      clock: time.clock,
      nonce: time.nonce,
      metrics: obs.metrics,
    };
  });
}

export const consolidateDeps = oncePerContainer(() => buildConsolidateDeps(process.env));
