// Parses settings once per container (env or an object a composition root assembled) with one zod schema,
// reporting every bad key at once, by name, in one ConfigError.
import type { z } from 'zod';
import { formatIssuePath, formatZodIssues } from '../model/zod-issues.ts';
import { ConfigError } from './errors.ts';

/** `what` names the settings in the message (`EC2 provider`, `launch-aws function`). */
export function parseConfig<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const keys = [...new Set(parsed.error.issues.map((issue) => formatIssuePath(issue.path)))];
  throw new ConfigError(`invalid ${what} config: ${formatZodIssues(parsed.error)}`, keys, {
    cause: parsed.error,
  });
}
