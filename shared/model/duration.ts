// Go-style durations ("720h", "1h30m", "30s", "Never") as milliseconds, the way Karpenter's API reads them:
// Go's time.ParseDuration, which refuses anything above its int64 nanosecond range (2562047h47m16.854775807s).

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
/** Go's largest time.Duration: 2^63 − 1 nanoseconds, about 292 years. */
export const MAX_DURATION_NS = (1n << 63n) - 1n;
const PART = /^(\d*)(?:\.(\d*))?([^\d.]+)/;
/** Longest duration text read; checked before any pattern so no input costs more than it. */
const MAX_LENGTH = 128;

export const NEVER = 'Never';

/** Nanoseconds of a Go duration, or undefined when time.ParseDuration would refuse it (syntax or overflow). */
export function parseDurationNs(text: string): bigint | undefined {
  if (text.length === 0 || text.length > MAX_LENGTH) return undefined;
  let rest = text;
  let negative = false;
  if (rest[0] === '-' || rest[0] === '+') {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  while (rest !== '') {
    const m = PART.exec(rest);
    if (!m) return undefined;
    const [whole, int = '', frac, unit = ''] = m;
    const scale = UNIT_NS[unit];
    if (scale === undefined || (int === '' && (frac === undefined || frac === ''))) return undefined;
    total += BigInt(int || '0') * scale;
    if (frac) total += (BigInt(frac) * scale) / 10n ** BigInt(frac.length);
    if (total > MAX_DURATION_NS) return undefined;
    rest = rest.slice(whole.length);
  }
  return negative ? -total : total;
}

/** Milliseconds of a Go duration; undefined when the text is not one. "0" is zero. */
export function parseDuration(text: string): number | undefined {
  const ns = parseDurationNs(text);
  return ns === undefined ? undefined : Number(ns) / 1e6;
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

// The patterns Karpenter v1's CRDs put on its duration fields (pkg/apis/crds/karpenter.sh_nodepools.yaml):
// whole numbers of s, m or h only — `1.5h` is refused by the API server although Go would parse it.
const CRD_DURATION = /^([0-9]+(s|m|h))+$/;
const CRD_BUDGET_DURATION = /^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$/;

/** expireAfter / consolidateAfter: `^(([0-9]+(s|m|h))+|Never)$`, and within Go's range. */
export const isCrdNillableDuration = (text: string): boolean =>
  text === NEVER || (text.length <= MAX_LENGTH && CRD_DURATION.test(text) && isDuration(text));
/** terminationGracePeriod: `^([0-9]+(s|m|h))+$`, and within Go's range. */
export const isCrdDuration = (text: string): boolean =>
  text.length <= MAX_LENGTH && CRD_DURATION.test(text) && isDuration(text);
/** A disruption budget's duration: `^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$`, and within Go's range. */
export const isCrdBudgetDuration = (text: string): boolean =>
  text.length <= MAX_LENGTH && CRD_BUDGET_DURATION.test(text) && isDuration(text);
