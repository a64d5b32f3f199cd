// DomainUniverse.without: a simulation's view of the pass's domains minus its left-out nodes must read exactly
// as a universe built without them — same domains in the same order, same suppliers — or decline.
import { describe, expect, it } from 'vitest';
import { DomainUniverse, type DomainSupplier, type Domains } from '../../../shared/scheduling/domains.ts';
import { Requirements } from '../../../shared/scheduling/requirement-set.ts';

const ZONE = 'topology.kubernetes.io/zone';
const supplier = (isPool: boolean): DomainSupplier => ({
  requirements: Requirements.fromLabels({}),
  taints: [],
  isPool,
});
const pool = supplier(true);
const [a, b, c] = [supplier(false), supplier(false), supplier(false)];
const build = (entries: readonly [string, DomainSupplier][], key = ZONE): DomainUniverse => {
  const u = new DomainUniverse();
  for (const [domain, s] of entries) u.add(key, domain, s);
  return u;
};
const read = (u: Domains, key = ZONE) =>
  [...u.domains(key)].map((d) => [d, u.suppliers(key, d).length] as const);

describe('DomainUniverse.without', () => {
  const entries: [string, DomainSupplier][] = [
    ['z1', pool],
    ['z2', pool],
    ['z1', a],
    ['z3', b],
    ['z2', c],
  ];
  const keys = new Set([ZONE]);

  it('reads as a universe built without the excluded suppliers', () => {
    const view = build(entries).without(keys, new Set([a]));
    expect(view && read(view)).toEqual(read(build(entries.filter(([, s]) => s !== a))));
  });

  it('drops a domain whose only supplier is excluded', () => {
    const view = build(entries).without(keys, new Set([b]));
    expect(view && read(view)).toEqual([
      ['z1', 2],
      ['z2', 2],
    ]);
    expect(view?.suppliers(ZONE, 'z3')).toEqual([]);
  });

  it('declines when an excluded supplier listed first would move its domain', () => {
    const nodesOnly: [string, DomainSupplier][] = [
      ['z1', a],
      ['z2', b],
      ['z1', c],
    ];
    expect(build(nodesOnly).without(keys, new Set([a]))).toBeUndefined();
  });

  it('answers only the keys it was limited to', () => {
    const view = build(entries).without(new Set(['other']), new Set());
    expect(view && [...view.domains(ZONE)]).toEqual([]);
    expect(view?.suppliers(ZONE, 'z1')).toEqual([]);
  });
});
