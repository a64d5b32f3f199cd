// Environment values as typed settings: Go-style durations ("1s", "14m"), booleans, comma lists and URLs,
// each refused with a message that says what was expected. The functions' config schemas are built from these.
import { z } from 'zod';
import { parseDuration } from '../model/duration.ts';

/** A Go duration ("500ms", "10s", "14m") as milliseconds, with a default when the variable is unset. */
export const durationMs = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text.trim());
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${text}" is not a duration (e.g. 500ms, 10s, 14m)` });
        return z.NEVER;
      }
      return ms;
    });

export const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

export const commaList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .refine((l) => l.length > 0, 'must list at least one value (comma-separated)');

export const required = (what: string) =>
  z
    .string({ message: `${what} is required` })
    .trim()
    .min(1, `${what} is required`);

export const url = (what: string) => z.url({ message: `${what} must be a URL` });
