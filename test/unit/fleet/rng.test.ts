// The seeded PRNG: reproducible, in range, and its helpers keep their contracts.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../fixtures/fleet/rng.ts';

describe('createRng', () => {
  it('repeats its sequence for the same seed and changes it for another', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(seqA);
  });

  it('keeps next() in [0, 1) and int() within both bounds, reaching each', () => {
    const rng = createRng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const x = rng.next();
      expect(x >= 0 && x < 1).toBe(true);
      seen.add(rng.int(3, 7));
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('shuffles into a permutation without touching the input', () => {
    const input = [1, 2, 3, 4, 5, 6, 7, 8];
    const out = createRng(9).shuffle(input);
    expect(input).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...out].sort()).toEqual(input);
  });

  it('never picks a zero-weight entry', () => {
    const rng = createRng(5);
    for (let i = 0; i < 500; i++)
      expect(
        rng.weighted([
          ['a', 1],
          ['never', 0],
          ['b', 2],
        ]),
      ).not.toBe('never');
  });

  it('rejects a seed that is not an integer and an empty range', () => {
    expect(() => createRng(1.5)).toThrow(/seed/);
    expect(() => createRng(1).int(5, 4)).toThrow(/empty range/);
  });
});
