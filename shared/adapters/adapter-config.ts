// What every adapter's settings share: the throttling retry policy and one way to parse settings at cold
// start, failing with an error that names the adapter and the field.
import { z } from 'zod';

export const retryPolicySchema = z
  .object({
    attempts: z.number().int().min(1).default(5),
    baseDelayMs: z.number().int().min(0).default(200),
    maxDelayMs: z.number().int().min(0).default(5_000),
  })
  .default({ attempts: 5, baseDelayMs: 200, maxDelayMs: 5_000 });

export class AdapterConfigError extends Error {
  override name = 'AdapterConfigError';
}

export function parseAdapterConfig<S extends z.ZodType>(
  schema: S,
  adapter: string,
  input: unknown,
): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new AdapterConfigError(
    `invalid ${adapter} config at ${first?.path.join('.') || '<root>'}: ${first?.message ?? 'invalid'}`,
    {
      cause: parsed.error,
    },
  );
}
