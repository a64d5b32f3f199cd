// Settings shared by the two launch functions (launch-aws, launch-gcp: one use case, two providers): the
// common variables and how long a refused offering stays unavailable.
import type { z } from 'zod';
import { commonEnv } from './function-env.ts';
import { durationMs } from './env.ts';

export const launchEnv = {
  ...commonEnv,
  /** Karpenter keeps an insufficient-capacity offering out of scheduling for 3 minutes. */
  KRAFTSMAN_UNAVAILABLE_OFFERING_TTL: durationMs('3m'),
};

export type LaunchEnv = z.output<z.ZodObject<typeof launchEnv>>;
