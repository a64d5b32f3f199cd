// The census fan-out's settings (docs/mechanisms/census.md#fan-out), read by the census (the coordinator) and the
// census worker: the snapshot bucket, the worker function, the shard size, the poll interval, a local S3 endpoint.
import { z } from 'zod';
import { ConfigError } from './errors.ts';
import { intInRange } from './disruption.ts';
import { durationMs, url } from './env.ts';

/** S3 bucket naming rules (S3 User Guide, "General purpose bucket naming rules"). */
const bucket = z
  .string()
  .trim()
  .regex(
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
    'must be an S3 bucket name (3–63 lowercase letters, digits, ".", "-")',
  );

export const snapshotEnv = {
  KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET: bucket.optional(),
  /** Tests and the local fleet: the S3 emulator (local/s3), path-style. */
  KRAFTSMAN_S3_ENDPOINT: url('KRAFTSMAN_S3_ENDPOINT').optional(),
};

export const fanOutEnv = {
  ...snapshotEnv,
  /** The census worker's function name or ARN; with the bucket, a large census fans out. */
  KRAFTSMAN_CENSUS_WORKER_FUNCTION: z.string().trim().min(1).optional(),
  /** Candidates per worker invocation: a census of at most this many stays in one invocation. */
  KRAFTSMAN_CENSUS_SHARD_SIZE: intInRange(1000, 1, 100_000),
  /** How often the coordinator reads the stored shard results while it waits. */
  KRAFTSMAN_CENSUS_POLL: durationMs('5s'),
};

type FanOutEnv = z.output<z.ZodObject<typeof fanOutEnv>> & { AWS_REGION: string };

export const snapshotSettings = (e: z.output<z.ZodObject<typeof snapshotEnv>> & { AWS_REGION: string }) =>
  e.KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET
    ? {
        region: e.AWS_REGION,
        bucket: e.KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET,
        ...(e.KRAFTSMAN_S3_ENDPOINT ? { endpoint: e.KRAFTSMAN_S3_ENDPOINT } : {}),
      }
    : undefined;

/** Both the bucket and the worker function, or neither (then the census never fans out). */
export function fanOutSettings(e: FanOutEnv, service: string) {
  const snapshots = snapshotSettings(e);
  const worker = e.KRAFTSMAN_CENSUS_WORKER_FUNCTION;
  if (!snapshots && !worker) return undefined;
  if (!snapshots || !worker)
    throw new ConfigError(
      `invalid ${service} function config: ${snapshots ? 'KRAFTSMAN_CENSUS_WORKER_FUNCTION' : 'KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET'}: set both KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET and KRAFTSMAN_CENSUS_WORKER_FUNCTION, or neither`,
      ['KRAFTSMAN_CENSUS_SNAPSHOT_BUCKET', 'KRAFTSMAN_CENSUS_WORKER_FUNCTION'],
    );
  return {
    snapshots,
    invoker: { region: e.AWS_REGION, functions: { 'census-worker': worker } },
    shardSize: e.KRAFTSMAN_CENSUS_SHARD_SIZE,
    pollMs: e.KRAFTSMAN_CENSUS_POLL,
  };
}
