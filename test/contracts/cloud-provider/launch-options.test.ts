// The port's launchOptions: how every adapter narrows a claim to the offerings it may launch on.
import { describe, expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { launchOptions } from '../../../shared/model/launch-options.ts';
import { claim } from './contract.ts';

const type = (name: string, offerings: InstanceTypeSpec['offerings']): InstanceTypeSpec => ({
  name,
  cloud: 'aws',
  arch: 'amd64',
  capacity: { cpu: '4' },
  offerings,
});
const types = [
  type('b', [
    { zone: 'z1', capacityType: 'on-demand', price: 2, available: true },
    { zone: 'z1', capacityType: 'spot', price: 0.8, available: true },
  ]),
  type('a', [
    { zone: 'z2', capacityType: 'on-demand', price: 1, available: true },
    { zone: 'z1', capacityType: 'on-demand', price: 1, available: false },
    { zone: 'z1', capacityType: 'reserved', price: 0, available: true, reservationId: 'cr-1' },
  ]),
];
const capacity = (...values: string[]) => ({
  key: 'karpenter.sh/capacity-type',
  operator: 'In' as const,
  values,
});

describe('launchOptions', () => {
  it('orders on-demand offerings cheapest first and skips unavailable ones', () => {
    const c = claim('x');
    expect(launchOptions(c, types).map((o) => `${o.instanceType}/${o.zone}`)).toEqual(['a/z2', 'b/z1']);
  });

  it('prefers spot when the claim allows spot and on-demand', () => {
    const c = claim('x');
    c.spec.requirements = [capacity('spot', 'on-demand')];
    expect(launchOptions(c, types).map((o) => o.capacityType)).toEqual(['spot']);
  });

  it('prefers a reservation when the claim allows reserved, carrying the reservation id', () => {
    const c = claim('x');
    c.spec.requirements = [capacity('reserved', 'spot', 'on-demand')];
    expect(launchOptions(c, types)).toEqual([
      { instanceType: 'a', zone: 'z1', capacityType: 'reserved', price: 0, reservationId: 'cr-1' },
    ]);
  });

  it('honours NotIn and DoesNotExist on zone and instance type', () => {
    const c = claim('x', [{ key: 'topology.kubernetes.io/zone', operator: 'NotIn', values: ['z2'] }]);
    expect(launchOptions(c, types).map((o) => o.instanceType)).toEqual(['b']);
    const none = claim('y', [{ key: 'node.kubernetes.io/instance-type', operator: 'DoesNotExist' }]);
    expect(launchOptions(none, types)).toEqual([]);
  });
});
