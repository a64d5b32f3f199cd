// Settings of the census worker (docs/functions/census.md#workers): the state table it writes its shard to and the
// snapshot bucket it reads; no cluster access, no cloud. One cold-start parse; every bad variable named at once.
import { z } from 'zod';
import { snapshotEnv, snapshotSettings } from './census-fanout.ts';
import { ConfigError } from './errors.ts';
import { commonEnv } from './function-env.ts';
import { parseConfig } from './parse.ts';

export const censusWorkerEnvSchema = z.object({
  KRAFTSMAN_CLUSTER_NAME: commonEnv.KRAFTSMAN_CLUSTER_NAME,
  AWS_REGION: commonEnv.AWS_REGION,
  KRAFTSMAN_TABLE_NAME: commonEnv.KRAFTSMAN_TABLE_NAME,
  KRAFTSMAN_DYNAMODB_ENDPOINT: commonEnv.KRAFTSMAN_DYNAMODB_ENDPOINT,
  KRAFTSMAN_LOG_LEVEL: commonEnv.KRAFTSMAN_LOG_LEVEL,
  KRAFTSMAN_METRICS_NAMESPACE: commonEnv.KRAFTSMAN_METRICS_NAMESPACE,
  ...snapshotEnv,
});

export function censusWorkerConfig(env: Readonly<Record<string, string | undefined>>) {
  const e = parseConfig(censusWorkerEnvSchema, env, 'census-worker function');
  const snapshots = snapshotSettings(e);
  if (!snapshots)
    throw new ConfigError(
      'invalid census-worker function config: KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET: required (the bucket the census writes its snapshot to)',
      ['KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET'],
    );
  return {
    clusterName: e.KRAFTSMAN_CLUSTER_NAME,
    store: {
      region: e.AWS_REGION,
      tableName: e.KRAFTSMAN_TABLE_NAME,
      ...(e.KRAFTSMAN_DYNAMODB_ENDPOINT ? { endpoint: e.KRAFTSMAN_DYNAMODB_ENDPOINT } : {}),
    },
    snapshots,
    observability: {
      service: 'census-worker',
      clusterName: e.KRAFTSMAN_CLUSTER_NAME,
      namespace: e.KRAFTSMAN_METRICS_NAMESPACE,
      logLevel: e.KRAFTSMAN_LOG_LEVEL,
    },
  };
}
export type CensusWorkerConfig = ReturnType<typeof censusWorkerConfig>;
