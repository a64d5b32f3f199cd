// The report's LP lower bound on hand-computed cases: one resource, a binding GPU row, two resources that
// force a fractional mix, overhead, unavailable offerings, and resources no type offers.
import { describe, expect, it } from 'vitest';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { lowerBoundPerHour } from '../../../local/fleet/report/lower-bound.ts';
import { maximize, UnboundedLpError } from '../../../local/fleet/report/simplex.ts';

type T = {
  name: string;
  capacity: Record<string, string>;
  price: number;
  overhead?: Record<string, string>;
  available?: boolean;
  labels?: Record<string, string>;
};
const catalog = (types: T[]) =>
  catalogSchema.parse({
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    instanceTypes: types.map((t) => ({
      name: t.name,
      cloud: 'aws',
      capacity: t.capacity,
      ...(t.labels ? { labels: t.labels } : {}),
      ...(t.overhead ? { overhead: t.overhead } : {}),
      offerings: [{ zone: 'z1', capacityType: 'on-demand', price: t.price, available: t.available ?? true }],
    })),
  });

describe('lowerBoundPerHour', () => {
  it('one resource: the cheapest $/cpu type times the demand', () => {
    const c = catalog([
      { name: 'a', capacity: { cpu: '4' }, price: 1 },
      { name: 'b', capacity: { cpu: '8' }, price: 1.5 },
    ]);
    // b costs 0.1875 $/cpu, a 0.25: 10 cpu → 1.875.
    expect(lowerBoundPerHour({ cpu: 10_000 }, c).perHour).toBeCloseTo(1.875, 9);
  });

  it('a GPU row binds and its nodes also cover the CPU', () => {
    const c = catalog([
      { name: 'cpu', capacity: { cpu: '8' }, price: 1 },
      { name: 'gpu', capacity: { cpu: '4', 'nvidia.com/gpu': '1' }, price: 3 },
    ]);
    // 2 GPUs need 2 gpu nodes ($6), which bring 8 cpu: the cpu demand of 8 costs nothing more.
    const b = lowerBoundPerHour({ cpu: 8_000, 'nvidia.com/gpu': 2_000 }, c);
    expect(b.perHour).toBeCloseTo(6, 9);
    // The dual is degenerate here (any cpu price in [0, 1/8] is optimal): check it is a feasible certificate.
    const yc = (b.shadowPrices.cpu ?? 0) * 1000;
    const yg = (b.shadowPrices['nvidia.com/gpu'] ?? 0) * 1000;
    expect(8 * yc).toBeLessThanOrEqual(1 + 1e-9);
    expect(4 * yc + yg).toBeLessThanOrEqual(3 + 1e-9);
    expect(8 * yc + 2 * yg).toBeCloseTo(6, 9);
  });

  it('prices a pod’s GPUs at the model it names, not the cheapest GPU', () => {
    const c = catalog([
      {
        name: 't4',
        capacity: { cpu: '8', 'nvidia.com/gpu': '1' },
        price: 0.5,
        labels: { 'kraftsman.dev/gpu-model': 't4' },
      },
      {
        name: 'h100',
        capacity: { cpu: '96', 'nvidia.com/gpu': '8' },
        price: 40,
        labels: { 'kraftsman.dev/gpu-model': 'h100' },
      },
    ]);
    const gpus = { cpu: 8_000, 'nvidia.com/gpu': 8_000 };
    // Without a model: eight T4s at 0.5.
    expect(lowerBoundPerHour(gpus, c).perHour).toBeCloseTo(4, 9);
    // Eight H100 GPUs asked for by model: one H100 node, whatever the T4s cost.
    expect(lowerBoundPerHour({ ...gpus, 'nvidia.com/gpu@h100': 8_000 }, c).perHour).toBeCloseTo(40, 9);
  });

  it('two resources force a fractional mix of two shapes', () => {
    const c = catalog([
      { name: 'cpu-heavy', capacity: { cpu: '2', memory: '1' }, price: 1 },
      { name: 'mem-heavy', capacity: { cpu: '1', memory: '2' }, price: 1 },
      { name: 'big', capacity: { cpu: '4', memory: '4' }, price: 3 },
    ]);
    // 10/3 of each small shape covers 10 cpu and 10 memory at 20/3; `big` costs 0.75 per (cpu+memory) pair-unit.
    expect(lowerBoundPerHour({ cpu: 10_000, memory: 10_000 }, c).perHour).toBeCloseTo(20 / 3, 9);
  });

  it('counts capacity less overhead and ignores unavailable offerings', () => {
    const c = catalog([
      { name: 'a', capacity: { cpu: '4' }, overhead: { cpu: '1' }, price: 3 },
      { name: 'gone', capacity: { cpu: '100' }, price: 0.01, available: false },
    ]);
    // 3 allocatable cpu for $3: 6 cpu → $6.
    expect(lowerBoundPerHour({ cpu: 6_000 }, c).perHour).toBeCloseTo(6, 9);
  });

  it('mixes units as the catalog does (Gi memory next to millicores)', () => {
    const c = catalog([
      { name: 'm', capacity: { cpu: '2', memory: '16Gi' }, price: 1 },
      { name: 'c', capacity: { cpu: '8', memory: '4Gi' }, price: 1 },
    ]);
    // Both rows bind: 2m + 8c = 8 cpu and 16m + 4c = 32 Gi give m = 28/15, c = 8/15, cost 36/15 = 2.4
    // (the other vertices: 2m + 0.5c = $2.5 with spare memory, 4m = $4, 8c = $8).
    const gi = 1024 ** 3 * 1000;
    expect(lowerBoundPerHour({ cpu: 8_000, memory: 32 * gi }, c).perHour).toBeCloseTo(2.4, 6);
  });

  it('leaves out resources no type offers and names them', () => {
    const c = catalog([{ name: 'a', capacity: { cpu: '2' }, price: 1 }]);
    const b = lowerBoundPerHour({ cpu: 4_000, 'example.com/fpga': 1_000 }, c);
    expect(b.perHour).toBeCloseTo(2, 9);
    expect(b.unserved).toEqual(['example.com/fpga']);
    expect(lowerBoundPerHour({}, c).perHour).toBe(0);
  });
});

describe('maximize', () => {
  it('solves a textbook LP (max 3x+5y, x<=4, 2y<=12, 3x+2y<=18 → 36 at (2,6))', () => {
    const r = maximize(
      [
        [1, 0],
        [0, 2],
        [3, 2],
      ],
      [4, 12, 18],
      [3, 5],
    );
    expect(r.value).toBeCloseTo(36, 9);
    expect(r.y[0]).toBeCloseTo(2, 9);
    expect(r.y[1]).toBeCloseTo(6, 9);
  });

  it('reports an unbounded LP as a typed error', () => {
    expect(() => maximize([[1, -1]], [1], [1, 1])).toThrow(UnboundedLpError);
  });
});
