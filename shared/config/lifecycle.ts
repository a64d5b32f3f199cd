// Settings of the lifecycle function: Karpenter's timeouts (registration 15 min, overridable per NodePool by
// annotation), the drain timeout, garbage-collection grace, and the clouds it terminates instances on.
import { z } from 'zod';
import { commonEnv, commonSettings, gcpEnv, gcpSettings, wantsGcp } from './function-env.ts';
import { durationMs } from './env.ts';
import { parseConfig } from './parse.ts';

export const lifecycleEnvSchema = z.object({
  ...commonEnv,
  KRAFTSMAN_LAUNCH_TIMEOUT: durationMs('5m'),
  KRAFTSMAN_REGISTRATION_TIMEOUT: durationMs('15m'),
  KRAFTSMAN_INITIALIZATION_TIMEOUT: durationMs('15m'),
  KRAFTSMAN_DRAIN_TIMEOUT: durationMs('10m'),
  KRAFTSMAN_GC_GRACE: durationMs('1m'),
  KRAFTSMAN_PREEMPTION_LOOKBACK: durationMs('5m'),
  KRAFTSMAN_LEASE_TTL: durationMs('2m'),
});

export function lifecycleConfig(env: Readonly<Record<string, string | undefined>>) {
  const gcp = wantsGcp(env)
    ? parseConfig(lifecycleEnvSchema.extend(gcpEnv), env, 'lifecycle function')
    : undefined;
  const e = gcp ?? parseConfig(lifecycleEnvSchema, env, 'lifecycle function');
  return {
    ...commonSettings(e, 'lifecycle'),
    gce: gcp ? gcpSettings(gcp) : undefined,
    leaseTtlMs: e.KRAFTSMAN_LEASE_TTL,
    lifecycle: {
      timeouts: {
        launchMs: e.KRAFTSMAN_LAUNCH_TIMEOUT,
        registrationMs: e.KRAFTSMAN_REGISTRATION_TIMEOUT,
        initializationMs: e.KRAFTSMAN_INITIALIZATION_TIMEOUT,
      },
      drainTimeoutMs: e.KRAFTSMAN_DRAIN_TIMEOUT,
      gcGraceMs: e.KRAFTSMAN_GC_GRACE,
      preemptionLookbackMs: e.KRAFTSMAN_PREEMPTION_LOOKBACK,
    },
  };
}
export type LifecycleConfig = ReturnType<typeof lifecycleConfig>;
