// Settings of the launch-aws function: the launch settings and the EC2 region (the function's own).
import { z } from 'zod';
import { commonSettings } from './function-env.ts';
import { launchEnv } from './launch.ts';
import { parseConfig } from './parse.ts';

export const launchAwsEnvSchema = z.object(launchEnv);

export function launchAwsConfig(env: Readonly<Record<string, string | undefined>>) {
  const e = parseConfig(launchAwsEnvSchema, env, 'launch-aws function');
  return { ...commonSettings(e, 'launch-aws'), unavailableTtlMs: e.KRAFTSMAN_UNAVAILABLE_OFFERING_TTL };
}
export type LaunchAwsConfig = ReturnType<typeof launchAwsConfig>;
