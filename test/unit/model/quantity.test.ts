import { describe, expect, it } from 'vitest';
import { formatMilli, parseQuantity, QuantityError } from '../../../shared/model/quantity.ts';

describe('parseQuantity', () => {
  it.each([
    ['1', 1000n],
    ['100m', 100n],
    ['1.5', 1500n],
    ['.5', 500n],
    ['1Ki', 1024_000n],
    ['1Mi', 1048576_000n],
    ['16Gi', 16n * 1073741824n * 1000n],
    ['1Ei', (1n << 60n) * 1000n],
    ['1k', 1_000_000n],
    ['2M', 2_000_000_000n],
    ['1G', 1_000_000_000_000n],
    ['1T', 10n ** 15n],
    ['1P', 10n ** 18n],
    ['1E', 10n ** 21n],
    ['1e3', 1_000_000n],
    ['1E3', 1_000_000n],
    ['1.5e-3', 2n],
    ['2e-1', 200n],
    ['500u', 1n],
    ['1n', 1n],
    ['-2', -2000n],
    ['+3', 3000n],
    [4, 4000n],
    [0.25, 250n],
  ])('reads %s exactly', (text, milli) => {
    expect(parseQuantity(text)).toBe(milli);
  });

  it.each(['', 'abc', '1.2.3', '1Kb', '1 Gi', 'Gi', '1e', '--1', '1ki', '1e99'])('rejects %j', (text) => {
    expect(() => parseQuantity(text)).toThrow(QuantityError);
  });

  it('compares without float drift: 0.1 + 0.2 cores is exactly 300m', () => {
    expect(parseQuantity('0.1') + parseQuantity('0.2')).toBe(parseQuantity('300m'));
  });

  it('formats milli-units for people', () => {
    expect(formatMilli(1500)).toBe('1500m');
    expect(formatMilli(3000)).toBe('3');
    expect(formatMilli(16n * 1073741824n * 1000n, true)).toBe('16Gi');
  });
});
