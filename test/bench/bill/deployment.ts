// What serverless.yml deploys that the bill needs: each function's memory and its EventBridge schedule (validated
// with zod, so that a renamed key fails here with its path rather than pricing a function at nothing).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

export interface DeployedFunction {
  readonly name: string;
  readonly memoryMb: number;
  /** Its rate() schedule in minutes; absent for a function only invoked (launchers, admit). */
  readonly everyMinutes?: number;
  readonly timeoutSeconds: number;
}

const event = z.object({ schedule: z.string().optional() }).passthrough();
const template = z.object({
  provider: z
    .object({ memorySize: z.number().int().positive(), timeout: z.number().int().positive() })
    .passthrough(),
  functions: z.record(
    z.string(),
    z
      .object({
        memorySize: z.number().int().positive().optional(),
        timeout: z.number().int().positive().optional(),
        events: z.array(event).optional(),
      })
      .passthrough(),
  ),
});

const UNIT_MINUTES: Readonly<Record<string, number>> = {
  minute: 1,
  minutes: 1,
  hour: 60,
  hours: 60,
  day: 1440,
  days: 1440,
};

/** `rate(10 minutes)` → 10; anything else is an error naming the function. */
export function rateMinutes(fn: string, rate: string): number {
  const m = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(rate.trim());
  if (!m) throw new Error(`serverless.yml: functions.${fn}.events: schedule "${rate}" is not a rate(N unit)`);
  return Number(m[1]) * (UNIT_MINUTES[m[2] as string] as number);
}

export function deployedFunctions(file = 'serverless.yml'): DeployedFunction[] {
  const parsed = template.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const t = parsed.data;
  return Object.entries(t.functions).map(([name, f]) => {
    const schedule = f.events?.find((e) => e.schedule !== undefined)?.schedule;
    return {
      name,
      memoryMb: f.memorySize ?? t.provider.memorySize,
      timeoutSeconds: f.timeout ?? t.provider.timeout,
      ...(schedule ? { everyMinutes: rateMinutes(name, schedule) } : {}),
    };
  });
}
