import { describe, expect, it } from 'vitest';
import { Requirement } from '../../../shared/scheduling/requirement.ts';
import { Requirements } from '../../../shared/scheduling/requirement-set.ts';

const req = (
  key: string,
  operator: Parameters<typeof Requirement.of>[1],
  values: string[] = [],
  min?: number,
) => Requirement.of(key, operator, values, min);

describe('Requirement algebra', () => {
  it.each([
    ['In', ['a', 'b'], 'a', true],
    ['In', ['a', 'b'], 'c', false],
    ['NotIn', ['a'], 'a', false],
    ['NotIn', ['a'], 'b', true],
    ['Exists', [], 'x', true],
    ['DoesNotExist', [], 'x', false],
    ['Gt', ['4'], '5', true],
    ['Gt', ['4'], '4', false],
    ['Lt', ['4'], '3', true],
    ['Lt', ['4'], '4', false],
    ['Gte', ['4'], '4', true],
    ['Gte', ['4'], '3', false],
    ['Lte', ['4'], '4', true],
    ['Lte', ['4'], '5', false],
    ['Gt', ['4'], 'abc', false],
  ] as const)('%s %j admits %s: %s', (op, values, value, expected) => {
    expect(req('k', op, [...values]).has(value)).toBe(expected);
  });

  it('intersects In with NotIn by removing the excluded values', () => {
    const r = req('k', 'In', ['a', 'b', 'c']).intersection(req('k', 'NotIn', ['b']));
    expect([...r.values].sort()).toEqual(['a', 'c']);
    expect(r.operator()).toBe('In');
  });

  it('intersects bounds with a value set, keeping only values inside the bounds', () => {
    const r = req('cpu', 'In', ['2', '4', '8', '16'])
      .intersection(req('cpu', 'Gt', ['3']))
      .intersection(req('cpu', 'Lte', ['8']));
    expect([...r.values].sort()).toEqual(['4', '8']);
  });

  it('empties contradictory bounds', () => {
    expect(
      req('cpu', 'Gt', ['8'])
        .intersection(req('cpu', 'Lt', ['4']))
        .size(),
    ).toBe(0);
  });

  it('unions the excluded values of two NotIn requirements', () => {
    const r = req('k', 'NotIn', ['a']).intersection(req('k', 'NotIn', ['b']));
    expect(r.operator()).toBe('NotIn');
    expect(r.has('a') || r.has('b')).toBe(false);
    expect(r.has('c')).toBe(true);
  });

  it('keeps the larger minValues', () => {
    expect(req('k', 'In', ['a', 'b', 'c'], 2).intersection(req('k', 'Exists', [], 3)).minValues).toBe(3);
  });
});

describe('Requirements compatibility', () => {
  it('allows a well-known key the NodePool does not name, but not a custom one', () => {
    const pool = Requirements.fromSelectors([{ key: 'team', operator: 'In', values: ['ml'] }]);
    const pod = (key: string) => Requirements.fromSelectors([{ key, operator: 'In', values: ['x'] }]);
    expect(pool.compatible(pod('topology.kubernetes.io/zone'))).toBe(true);
    expect(pool.incompatibility(pod('custom'))).toMatch(/does not have known values/);
  });

  it('allows NotIn and DoesNotExist on undefined keys', () => {
    const pool = new Requirements();
    expect(
      pool.compatible(
        Requirements.fromSelectors([{ key: 'custom', operator: 'NotIn', values: ['x'] }]),
        new Set(),
      ),
    ).toBe(true);
    expect(
      pool.compatible(Requirements.fromSelectors([{ key: 'custom', operator: 'DoesNotExist' }]), new Set()),
    ).toBe(true);
  });

  it('treats two negative requirements on a key as compatible even when nothing intersects', () => {
    const a = Requirements.fromSelectors([{ key: 'k', operator: 'DoesNotExist' }]);
    expect(a.conflict(Requirements.fromSelectors([{ key: 'k', operator: 'DoesNotExist' }]))).toBeUndefined();
    expect(a.conflict(Requirements.fromSelectors([{ key: 'k', operator: 'In', values: ['x'] }]))).toBe('k');
  });
});
