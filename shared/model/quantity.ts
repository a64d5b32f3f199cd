// Kubernetes resource quantities, parsed exactly (the whole grammar of k8s.io/apimachinery resource.Quantity)
// into integer milli-units as bigint. Like the API server, values finer than 1m round up to 1m.

const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL_EXP: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

// <signedNumber><suffix>; suffix = binarySI | decimalSI | decimalExponent ("e"|"E" signedNumber)
const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;
/** Longest quantity text read (docs/input-bounds.md); checked before the pattern so no input costs more than it. */
export const MAX_QUANTITY_LENGTH = 64;

export class QuantityError extends Error {
  override name = 'QuantityError';
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Ceiling division for a possibly negative numerator and positive denominator. */
function ceilDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n > 0n ? q + 1n : q;
}

/** Parses a quantity ("100m", "1.5Gi", "2e3", 4) into milli-units. Throws QuantityError on bad syntax. */
export function parseQuantity(input: string | number): bigint {
  const text = typeof input === 'number' ? numberText(input) : input; // untrimmed, as the API server reads it
  if (text.length > MAX_QUANTITY_LENGTH)
    throw new QuantityError(`invalid quantity: longer than ${MAX_QUANTITY_LENGTH} characters`);
  const match = QUANTITY.exec(text);
  if (!match) throw new QuantityError(`invalid quantity ${JSON.stringify(input)}`);
  const [, sign = '', digits = '', suffix = ''] = match;
  const [intPart = '', fracPart = ''] = digits.split('.');
  // value = mantissa × 10^-fracDigits × multiplier, in milli-units → × 1000
  const mantissa = BigInt((intPart || '0') + fracPart);
  let numerator = mantissa * 1000n;
  let denominator = pow10(fracPart.length);
  if (suffix in BINARY) {
    numerator *= BINARY[suffix] as bigint;
  } else {
    const exp = suffix.length > 1 ? Number(suffix.slice(1)) : DECIMAL_EXP[suffix];
    if (exp === undefined || !Number.isFinite(exp) || Math.abs(exp) > 30) {
      throw new QuantityError(`invalid quantity ${JSON.stringify(input)}: exponent out of range`);
    }
    if (exp >= 0) numerator *= pow10(exp);
    else denominator *= pow10(-exp);
  }
  const milli = ceilDiv(numerator, denominator);
  return sign === '-' ? -milli : milli;
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new QuantityError(`invalid quantity ${n}`);
  return String(n);
}

export function isQuantity(input: unknown): boolean {
  if (typeof input !== 'string' && typeof input !== 'number') return false;
  try {
    parseQuantity(input);
    return true;
  } catch {
    return false;
  }
}

/**
 * Milli-units as a JS number: exact while |value| < 2^53 milli (about 8 TB per resource, beyond any node);
 * larger values saturate there, which keeps every comparison against real requests correct.
 */
export function quantityMilli(input: string | number): number {
  const milli = parseQuantity(input);
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  if (milli > max) return Number.MAX_SAFE_INTEGER;
  if (milli < -max) return -Number.MAX_SAFE_INTEGER;
  return Number(milli);
}

/** Formats milli-units the short way people read them: "1500m", "3", "16Gi". */
export function formatMilli(milli: number | bigint, binary = false): string {
  const m = BigInt(milli);
  if (m % 1000n !== 0n) return `${m}m`;
  const units = m / 1000n;
  if (binary && units !== 0n) {
    for (const [suffix, size] of Object.entries(BINARY).reverse()) {
      if (units % size === 0n) return `${units / size}${suffix}`;
    }
  }
  return `${units}`;
}
