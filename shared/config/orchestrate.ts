// Settings of the orchestrate function (every minute): its lease, how long a command's replacements may take
// to initialize before it is rolled back, and how long an unconfirmed command waits for its admitter. One
// cold-start parse of process.env; every bad variable is reported at once by name.
import { z } from 'zod';
import { commonEnv, commonSettings, gcpEnv, gcpSettings, wantsGcp } from './function-env.ts';
import { durationMs } from './env.ts';
import { parseConfig } from './parse.ts';

export const orchestrateEnvSchema = z.object({
  ...commonEnv,
  /** Outlives one pass; heartbeats extend it while a long drain runs. */
  KRAFTSMAN_LEASE_TTL: durationMs('2m'),
  /** Karpenter waits this long for a replacement to initialize before it gives the command up. */
  KRAFTSMAN_REPLACEMENT_TIMEOUT: durationMs('15m'),
  /** Longer than admission's budget: an unconfirmed command this old lost its admitter. */
  KRAFTSMAN_ADMISSION_GRACE: durationMs('10m'),
  /**
   * The fork's replacement-failure backoff base (docs/mechanisms/replacement-backoff.md): a command whose
   * replacement failed holds its candidates off replaces for base × 2^(n−1), at most 16 × base; 0s disables.
   */
  KRAFTSMAN_REPLACEMENT_BACKOFF: durationMs('5m'),
});

export function orchestrateConfig(env: Readonly<Record<string, string | undefined>>) {
  // Commands may hold Compute Engine nodes: GCP is optional (AWS-only fleets) but all or nothing.
  const gcp = wantsGcp(env)
    ? parseConfig(orchestrateEnvSchema.extend(gcpEnv), env, 'orchestrate function')
    : undefined;
  const e = gcp ?? parseConfig(orchestrateEnvSchema, env, 'orchestrate function');
  return {
    ...commonSettings(e, 'orchestrate'),
    gce: gcp ? gcpSettings(gcp) : undefined,
    leaseTtlMs: e.KRAFTSMAN_LEASE_TTL,
    replacementTimeoutMs: e.KRAFTSMAN_REPLACEMENT_TIMEOUT,
    admissionGraceMs: e.KRAFTSMAN_ADMISSION_GRACE,
    replacementBackoffMs: e.KRAFTSMAN_REPLACEMENT_BACKOFF,
  };
}
export type OrchestrateConfig = ReturnType<typeof orchestrateConfig>;
