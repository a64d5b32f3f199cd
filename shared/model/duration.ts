// Go-style durations ("720h", "1h30m", "30s", "Never") as milliseconds, the way Karpenter's API reads them.

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const GO_DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;

export const NEVER = 'Never';

/** Milliseconds of a Go duration; undefined when the text is not one. "0" is zero. */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (!GO_DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, n, unit] of text.matchAll(PART)) total += Number(n) * (UNIT_MS[unit as string] as number);
  return total;
}

/** A duration that may be "Never" (consolidateAfter, expireAfter): Infinity for Never. */
export function parseNillableDuration(text: string): number | undefined {
  return text === NEVER ? Number.POSITIVE_INFINITY : parseDuration(text);
}

export function isDuration(text: string): boolean {
  return parseDuration(text) !== undefined;
}

export function isNillableDuration(text: string): boolean {
  return parseNillableDuration(text) !== undefined;
}
