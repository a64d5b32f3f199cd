// Settings of the launch-gcp function: the launch settings and the Compute Engine project, region, zones and
// workload identity credentials (all required here).
import { z } from 'zod';
import { commonSettings, gcpEnv, gcpSettings } from './function-env.ts';
import { launchEnv } from './launch.ts';
import { parseConfig } from './parse.ts';

export const launchGcpEnvSchema = z.object({ ...launchEnv, ...gcpEnv });

export function launchGcpConfig(env: Readonly<Record<string, string | undefined>>) {
  const e = parseConfig(launchGcpEnvSchema, env, 'launch-gcp function');
  return {
    ...commonSettings(e, 'launch-gcp'),
    gce: gcpSettings(e),
    unavailableTtlMs: e.KRAFTSMAN_UNAVAILABLE_OFFERING_TTL,
  };
}
export type LaunchGcpConfig = ReturnType<typeof launchGcpConfig>;
