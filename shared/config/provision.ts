// Settings of the provision function: the watch window and Karpenter's batching (1 s idle, 10 s max), the
// lease, the TTLs of nominations and verdicts, and the launch functions it invokes. One cold-start parse of
// process.env; every bad variable is reported at once by name.
import { z } from 'zod';
import { commonEnv, commonSettings, gcpEnv, gcpSettings, wantsGcp } from './function-env.ts';
import { durationMs, flag, required } from './env.ts';
import { parseConfig } from './parse.ts';

export const provisionEnvSchema = z.object({
  ...commonEnv,
  KRAFTSMAN_LAUNCH_AWS_FUNCTION: required('KRAFTSMAN_LAUNCH_AWS_FUNCTION'),
  KRAFTSMAN_LAUNCH_GCP_FUNCTION: required('KRAFTSMAN_LAUNCH_GCP_FUNCTION'),
  /** 14 of a 15-minute Lambda: the next scheduled start finds the lease free soon after. */
  KRAFTSMAN_WATCH_WINDOW: durationMs('14m'),
  KRAFTSMAN_BATCH_IDLE: durationMs('1s'),
  KRAFTSMAN_BATCH_MAX: durationMs('10s'),
  KRAFTSMAN_POLL_INTERVAL: durationMs('500ms'),
  KRAFTSMAN_RETRY_UNSCHEDULABLE: durationMs('1m'),
  KRAFTSMAN_LEASE_TTL: durationMs('1m'),
  /** Long enough for a launch plus a GPU host's registration. */
  KRAFTSMAN_NOMINATION_TTL: durationMs('25m'),
  KRAFTSMAN_VERDICT_TTL: durationMs('5m'),
  KRAFTSMAN_INSTANCE_TYPES_TTL: durationMs('5m'),
  KRAFTSMAN_UPSTREAM: flag(false),
});

export function provisionConfig(env: Readonly<Record<string, string | undefined>>) {
  // GCP is optional (AWS-only fleets) but all or nothing; either way one parse names every bad variable.
  const gcp = wantsGcp(env)
    ? parseConfig(provisionEnvSchema.extend(gcpEnv), env, 'provision function')
    : undefined;
  const e = gcp ?? parseConfig(provisionEnvSchema, env, 'provision function');
  return {
    ...commonSettings(e, 'provision'),
    /** Read for instance types only: provision launches nothing itself. */
    gce: gcp ? gcpSettings(gcp) : undefined,
    invoker: {
      region: e.AWS_REGION,
      functions: {
        'launch-aws': e.KRAFTSMAN_LAUNCH_AWS_FUNCTION,
        'launch-gcp': e.KRAFTSMAN_LAUNCH_GCP_FUNCTION,
      },
    },
    leaseTtlMs: e.KRAFTSMAN_LEASE_TTL,
    instanceTypesTtlMs: e.KRAFTSMAN_INSTANCE_TYPES_TTL,
    watch: {
      windowMs: e.KRAFTSMAN_WATCH_WINDOW,
      idleMs: e.KRAFTSMAN_BATCH_IDLE,
      maxMs: e.KRAFTSMAN_BATCH_MAX,
      pollMs: e.KRAFTSMAN_POLL_INTERVAL,
      retryMs: e.KRAFTSMAN_RETRY_UNSCHEDULABLE,
      maxFailures: 3,
    },
    batch: {
      nominationTtlMs: e.KRAFTSMAN_NOMINATION_TTL,
      verdictTtlMs: e.KRAFTSMAN_VERDICT_TTL,
      upstream: e.KRAFTSMAN_UPSTREAM,
    },
  };
}
export type ProvisionConfig = ReturnType<typeof provisionConfig>;
