// What a replace is priced against, as Karpenter v1.14 prices it: the candidate at its own zone's and capacity
// type's offering in the current price book (resolveNodePrice), each replacement type at its worst launch price
// (WorstLaunchPrice), kept only if strictly cheaper; and no minimum saving unless the pool is Balanced. The
// decay-bound churn of $0.02/h replaces is these rules on a constant book (docs/fleet-scenarios.md, "Replace churn").
import { describe, expect, it } from 'vitest';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { buildInstanceTypes, type InstanceType } from '../../../shared/scheduling/instance-type.ts';
import { node, nodePool, plan, pod, reasonOf, ZONES } from './fixtures.ts';

/** On-demand types: name → CPUs and a price per zone (in ZONES order). */
function book(types: Record<string, { cpu: number; prices: readonly number[] }>): InstanceType[] {
  return buildInstanceTypes(
    catalogSchema.parse({
      apiVersion: 'kraftsman.dev/v1alpha1',
      kind: 'InstanceTypeCatalog',
      instanceTypes: Object.entries(types).map(([name, t]) => ({
        name,
        cloud: 'aws',
        capacity: { cpu: String(t.cpu), memory: `${t.cpu * 4}Gi`, pods: '110' },
        offerings: ZONES.map((zone, i) => ({ zone, capacityType: 'on-demand', price: t.prices[i] })),
      })),
    }).instanceTypes,
  );
}

describe('the candidate is priced at its own offering in the current book', () => {
  // z-4 launches at worst for 0.42 (zone b); z-8 costs 0.40 in zones a and c, 0.45 in b.
  const zonal = book({
    'z-4': { cpu: 4, prices: [0.4, 0.42, 0.4] },
    'z-8': { cpu: 8, prices: [0.4, 0.45, 0.4] },
  });
  const fleet = (zone: string) => [
    nodePool('default'),
    node('node-a', { type: 'z-8', zone }),
    pod('a-0', { node: 'node-a', cpu: '3' }),
  ];

  it('replaces a z-8 in the zone where it costs more than the replacement can launch for', () => {
    const r = plan(fleet('us-east-1b'), {}, zonal);
    const cmd = r.commands[0]!;
    expect(cmd.candidates[0]!.price).toBeCloseTo(0.45);
    expect(cmd.replacements[0]!.instanceTypes).toEqual(['z-4']);
  });

  it('keeps the same z-8 in a zone where it costs less than the replacement worst launch price', () => {
    const r = plan(fleet('us-east-1a'), {}, zonal);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe('no-cheaper-replacement');
  });

  it('follows the book: once zone b is repriced below 0.42 the z-8 there stays', () => {
    const repriced = book({
      'z-4': { cpu: 4, prices: [0.4, 0.42, 0.4] },
      'z-8': { cpu: 8, prices: [0.4, 0.41, 0.4] },
    });
    const r = plan(fleet('us-east-1b'), {}, repriced);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe('no-cheaper-replacement');
  });
});

describe('a marginal replace (the m7i.xlarge → c7i.xlarge shape: $0.2016 → $0.1785)', () => {
  // Four full m-4 nodes: the candidate's pod fits no other node, and c-4 is a hair cheaper.
  const prices = book({
    'm-4': { cpu: 4, prices: [0.2016, 0.2016, 0.2016] },
    'c-4': { cpu: 4, prices: [0.1785, 0.1785, 0.1785] },
  });
  const fleet = (policy: 'WhenEmptyOrUnderutilized' | 'Balanced') => [
    nodePool('default', { policy }),
    ...['n-0', 'n-1', 'n-2', 'n-3'].flatMap((n) => [
      node(n, { type: 'm-4' }),
      pod(`${n}-app`, { node: n, cpu: '3500m' }),
    ]),
  ];

  it('is proposed under WhenEmptyOrUnderutilized: any strictly cheaper replacement is one', () => {
    const r = plan(fleet('WhenEmptyOrUnderutilized'), {}, prices);
    const cmd = r.commands[0]!;
    expect(cmd.replacements[0]!.instanceTypes).toEqual(['c-4']);
    expect(cmd.candidates[0]!.price - cmd.replacements[0]!.price).toBeCloseTo(0.0231);
  });

  it('is turned down under Balanced: 2.9% of the pool cost saved for 25% of its disruption', () => {
    const r = plan(fleet('Balanced'), {}, prices);
    expect(r.commands).toEqual([]);
    for (const n of ['n-0', 'n-1', 'n-2', 'n-3']) expect(reasonOf(r, n)).toBe('below-threshold');
  });
});
