// Settings of the admit function (invoked by consolidate; reserved concurrency 1, set in serverless.yml): the
// pass options it re-validates with, the settling delay (15 s), how long it waits for a lingering admission
// lock, and the launch functions of the replacements it creates.
import { z } from 'zod';
import { commonEnv, commonSettings, gcpEnv, gcpSettings, wantsGcp } from './function-env.ts';
import { disruptionEnv, disruptionOptions } from './disruption.ts';
import { durationMs, required } from './env.ts';
import { parseConfig } from './parse.ts';

/** Lambda's reserved concurrency for admit: one admitter at a time; the admission lock fences the rest. */
export const ADMIT_RESERVED_CONCURRENCY = 1;

export const admitEnvSchema = z.object({
  ...commonEnv,
  ...disruptionEnv,
  KRAFTSMAN_LAUNCH_AWS_FUNCTION: required('KRAFTSMAN_LAUNCH_AWS_FUNCTION'),
  KRAFTSMAN_LAUNCH_GCP_FUNCTION: required('KRAFTSMAN_LAUNCH_GCP_FUNCTION'),
  /** Karpenter waits 15 s once before validating, so informers catch up with the pass's own effects. */
  KRAFTSMAN_SETTLING_DELAY: durationMs('15s'),
  /** A crashed admitter's lock expires within its budget + 30 s; wait up to this long for it, then drop. */
  KRAFTSMAN_ADMISSION_LOCK_WAIT: durationMs('2m'),
  KRAFTSMAN_ADMISSION_LOCK_POLL: durationMs('1s'),
});

export function admitConfig(env: Readonly<Record<string, string | undefined>>) {
  const gcp = wantsGcp(env) ? parseConfig(admitEnvSchema.extend(gcpEnv), env, 'admit function') : undefined;
  const e = gcp ?? parseConfig(admitEnvSchema, env, 'admit function');
  return {
    ...commonSettings(e, 'admit'),
    gce: gcp ? gcpSettings(gcp) : undefined,
    invoker: {
      region: e.AWS_REGION,
      functions: {
        'launch-aws': e.KRAFTSMAN_LAUNCH_AWS_FUNCTION,
        'launch-gcp': e.KRAFTSMAN_LAUNCH_GCP_FUNCTION,
      },
    },
    options: disruptionOptions(e),
    settlingDelayMs: e.KRAFTSMAN_SETTLING_DELAY,
    lockWaitMs: e.KRAFTSMAN_ADMISSION_LOCK_WAIT,
    lockPollMs: Math.max(1, e.KRAFTSMAN_ADMISSION_LOCK_POLL),
    instanceTypesTtlMs: e.KRAFTSMAN_INSTANCE_TYPES_TTL,
  };
}
export type AdmitConfig = ReturnType<typeof admitConfig>;
