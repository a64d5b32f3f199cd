// Settings of the consolidate function (scheduled every minute): the pass options, the consolidation lease,
// and the admit function it hands proposals to. One cold-start parse; every bad variable is named at once.
import { z } from 'zod';
import { syncPolicySchema } from '../disruption/sync-gate.ts';
import { passOptions } from '../disruption/types.ts';
import { commonEnv, commonSettings, gcpEnv, gcpSettings, wantsGcp } from './function-env.ts';
import { disruptionEnv, disruptionOptions } from './disruption.ts';
import { discoveryWorkers, discoveryWorkersEnv } from './discovery-workers.ts';
import { durationMs, required } from './env.ts';
import { parseConfig } from './parse.ts';

export const consolidateEnvSchema = z.object({
  ...commonEnv,
  ...disruptionEnv,
  ...discoveryWorkersEnv,
  KRAFTSMAN_ADMIT_FUNCTION: required('KRAFTSMAN_ADMIT_FUNCTION'),
  /** Unset: the walk budgets plus two minutes, so the lease outlives the longest pass without a heartbeat. */
  KRAFTSMAN_LEASE_TTL: durationMs('0s'),
  /** The sync gate's policy (docs/mechanisms/sync-gate.md): Strict (Karpenter's), IgnoreFailedOrDeferred, IgnoreNonReplacements. */
  KRAFTSMAN_DISRUPTION_SYNC_POLICY: syncPolicySchema.default('Strict'),
});

export function consolidateConfig(env: Readonly<Record<string, string | undefined>>) {
  const gcp = wantsGcp(env)
    ? parseConfig(consolidateEnvSchema.extend(gcpEnv), env, 'consolidate function')
    : undefined;
  const e = gcp ?? parseConfig(consolidateEnvSchema, env, 'consolidate function');
  return {
    ...commonSettings(e, 'consolidate'),
    /** Read for instance types only: consolidate launches nothing itself. */
    gce: gcp ? gcpSettings(gcp) : undefined,
    invoker: { region: e.AWS_REGION, functions: { admit: e.KRAFTSMAN_ADMIT_FUNCTION } },
    options: passOptions({ ...disruptionOptions(e), syncPolicy: e.KRAFTSMAN_DISRUPTION_SYNC_POLICY }),
    leaseTtlMs: e.KRAFTSMAN_LEASE_TTL > 0 ? e.KRAFTSMAN_LEASE_TTL : undefined,
    instanceTypesTtlMs: e.KRAFTSMAN_INSTANCE_TYPES_TTL,
    /** Threads the single-node walk simulates ahead on (docs/mechanisms/parallel-discovery.md); 1: none. */
    discoveryWorkers: discoveryWorkers(e),
  };
}
export type ConsolidateConfig = ReturnType<typeof consolidateConfig>;
