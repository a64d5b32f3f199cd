// The census worker's dependencies, built once per container: the state table (its shard results), the snapshot
// bucket (the sweep's input), the clock, logs and metrics. No cluster access and no cloud: it only simulates.
import { censusWorkerConfig, type CensusWorkerConfig } from '../../shared/config/census-worker.ts';
import type { CensusWorkerDeps } from '../../shared/loop/census-worker.ts';
// The compose modules it uses, not compose/index.ts: the index reaches the clouds' clients, which it never calls.
import { oncePerContainer } from '../compose/container.ts';
import type { InvocationObservability } from '../compose/invocation.ts';
import { buildObservability } from '../compose/observability.ts';
import { buildStateStore } from '../compose/state-store.ts';
import { buildTime } from '../compose/time.ts';
import { buildSnapshotStore } from '../compose/snapshot-store.ts';

export interface CensusWorkerHandlerDeps {
  readonly loop: CensusWorkerDeps;
  readonly settings: Pick<CensusWorkerConfig, 'clusterName'>;
  readonly obs: InvocationObservability;
}

export function buildCensusWorkerDeps(
  env: Readonly<Record<string, string | undefined>>,
): CensusWorkerHandlerDeps {
  const config = censusWorkerConfig(env);
  const time = buildTime();
  const obs = buildObservability(config.observability);
  return {
    loop: {
      store: buildStateStore(config.store, time.clock),
      snapshots: buildSnapshotStore(config.snapshots),
      clock: time.clock,
    },
    settings: config,
    obs,
  };
}

export const censusWorkerDeps = oncePerContainer(() => buildCensusWorkerDeps(process.env));
