// The census function's dependencies, built once per container: the cluster, the store (its lease, the pass
// state it reads, the census results it writes), both clouds' instance types priced from the stored book, logs and
// metrics. It launches and terminates nothing, so it holds no provider beyond the instance-type reads.
import { censusConfig, type CensusConfig } from '../../shared/config/census.ts';
import type { CensusDeps } from '../../shared/loop/census.ts';
import { buildSnapshotStore } from '../compose/snapshot-store.ts';
import {
  buildInvoker,
  composeDeps,
  leasedPorts,
  passInstanceTypes,
  oncePerContainer,
  type InvocationObservability,
} from '../compose/index.ts';

export interface CensusHandlerDeps {
  readonly loop: CensusDeps & { readonly nonce: () => string };
  readonly settings: Pick<CensusConfig, 'clusterName' | 'options' | 'sweepBudgetMs' | 'leaseTtlMs'>;
  readonly obs: InvocationObservability;
}

export function buildCensusDeps(env: Readonly<Record<string, string | undefined>>): CensusHandlerDeps {
  const config = censusConfig(env);
  return composeDeps(config, (base) => ({
    ...leasedPorts(base),
    instanceTypes: passInstanceTypes(config, base.time.clock, base.obs).forPools,
    ...(config.fanOut
      ? {
          fanOut: {
            invoker: buildInvoker(config.fanOut.invoker),
            snapshots: buildSnapshotStore(config.fanOut.snapshots),
            shardSize: config.fanOut.shardSize,
            pollMs: config.fanOut.pollMs,
          },
        }
      : {}),
  }));
}

export const censusDeps = oncePerContainer(() => buildCensusDeps(process.env));
