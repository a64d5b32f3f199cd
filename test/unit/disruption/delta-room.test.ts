// The follow's room indexes (docs/mechanisms/delta-simulation.md, point 4) against a brute-force scan: the base's
// persistent room tree over queue time, and the slots' room. A tree may only be lenient: it never rules
// out a node the exact test (fitsSum of the load so far and the wants) accepts. Seeded per run, printed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CPU,
  fitsSum,
  MEMORY,
  NVIDIA_GPU,
  PODS,
  type ResourceList,
} from '../../../shared/model/resources.ts';
import { SlotRoom } from '../../../shared/disruption/delta-room-slots.ts';
import { RoomTree, roomWants, type RoomArrival } from '../../../shared/disruption/delta-room.ts';
import { propertyRuns } from '../../property/seed.ts';

const TRACKED = [CPU, MEMORY, NVIDIA_GPU, PODS];
// integer milli-units as the scheduler has them, and fractional ones (sums that round) where the tolerance matters
const amount = (fractional: boolean) =>
  fractional
    ? fc.integer({ min: 0, max: 40 }).map((n) => n * 0.1)
    : fc.oneof(
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }).map((n) => n * 1000),
      );

const resources = (fractional: boolean) =>
  fc
    .record(
      {
        [CPU]: amount(fractional),
        [MEMORY]: amount(fractional),
        [NVIDIA_GPU]: amount(fractional),
        [PODS]: fc.integer({ min: 0, max: 4 }).map((n) => n * 1000),
      },
      { requiredKeys: [CPU, PODS] },
    )
    .map((r): ResourceList => r as ResourceList);

const fleet = fc.boolean().chain((fractional) =>
  fc.integer({ min: 1, max: 33 }).chain((n) =>
    fc.record({
      fractional: fc.constant(fractional),
      available: fc.array(resources(fractional), { minLength: n, maxLength: n }),
      arrivals: fc
        .array(
          fc.record({
            at: fc.integer({ min: 0, max: 30 }),
            node: fc.integer({ min: -1, max: n - 1 }),
            requests: resources(fractional),
          }),
          { maxLength: 60 },
        )
        .map((a): RoomArrival[] => [...a].sort((x, y) => x.at - y.at)),
      kept: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      queries: fc.array(
        fc.record({
          time: fc.integer({ min: 0, max: 32 }),
          from: fc.integer({ min: -2, max: n + 1 }),
          want: resources(fractional),
        }),
        { minLength: 1, maxLength: 12 },
      ),
    }),
  ),
);

/** What the follow's walk sums for node i before `time`: the arrivals on it with an earlier queue place. */
function loadBefore(arrivals: readonly RoomArrival[], i: number, time: number): ResourceList {
  const load: Record<string, number> = {};
  for (const a of arrivals)
    if (a.node === i && a.at < time)
      for (const r in a.requests) load[r] = (load[r] ?? 0) + (a.requests[r] as number);
  return load;
}

const tracked = (list: ResourceList): ResourceList =>
  Object.fromEntries(TRACKED.filter((r) => r in list).map((r) => [r, list[r] as number]));

/** The exact test on the tracked resources, node by node: the first node from `from` it accepts, or -1. */
function bruteNext(
  available: readonly ResourceList[],
  arrivals: readonly RoomArrival[],
  kept: readonly boolean[],
  time: number,
  from: number,
  want: ResourceList,
): number {
  for (let i = Math.max(0, from); i < available.length; i++)
    if (kept[i] && fitsSum(loadBefore(arrivals, i, time), tracked(want), available[i] as ResourceList))
      return i;
  return -1;
}

/** Whether a node's room covers each positive tracked want, up to `slack` (the tree's leniency). */
function nearlyFits(available: ResourceList, load: ResourceList, want: ResourceList, slack: number): boolean {
  return TRACKED.every((r) => {
    const w = want[r] ?? 0;
    return w <= 0 || (load[r] ?? 0) + w <= (available[r] ?? 0) + slack;
  });
}

describe('the base room tree', () => {
  it('finds the first node whose room at a queue place covers the wants, as a node-by-node scan does', () => {
    let queries = 0;
    fc.assert(
      fc.property(fleet, ({ fractional, available, arrivals, kept, queries: qs }) => {
        const tree = new RoomTree(available, arrivals, (i) => kept[i] === true);
        for (const q of qs) {
          queries++;
          const version = tree.version(q.time);
          expect(version).toBe(arrivals.filter((a) => a.at < q.time).length);
          const got = tree.next(version, q.from, roomWants(q.want));
          const exact = bruteNext(available, arrivals, kept, q.time, q.from, q.want);
          // never past the node the exact test takes: the tree never rules out what the walk would accept
          if (exact >= 0) expect(got).toBeGreaterThanOrEqual(0);
          if (exact >= 0) expect(got).toBeLessThanOrEqual(exact);
          if (got < 0) continue;
          // what it finds is a kept node from `from` whose room covers each positive want (by rounding, fractional)
          expect(got).toBeGreaterThanOrEqual(Math.max(0, q.from));
          expect(kept[got]).toBe(true);
          const load = loadBefore(arrivals, got, q.time);
          expect(nearlyFits(available[got] as ResourceList, load, q.want, fractional ? 1e-6 : 0)).toBe(true);
          // and in integer milli-units, the first such node
          if (!fractional)
            for (let i = Math.max(0, q.from); i < got; i++)
              if (kept[i])
                expect(
                  nearlyFits(available[i] as ResourceList, loadBefore(arrivals, i, q.time), q.want, 0),
                ).toBe(false);
        }
      }),
      propertyRuns(),
    );
    expect(queries).toBeGreaterThan(1000);
  });

  it('never finds a node it does not keep, nor one past the node order', () => {
    const available = [
      { [CPU]: 4000, [PODS]: 10000 },
      { [CPU]: 4000, [PODS]: 10000 },
    ];
    const tree = new RoomTree(available, [], (i) => i === 1);
    const wants = roomWants({ [CPU]: 1000, [PODS]: 1000 });
    expect(tree.next(0, 0, wants)).toBe(1);
    expect(tree.next(0, 2, wants)).toBe(-1);
  });

  it('takes each arrival from its node from the next version on', () => {
    const available = [
      { [CPU]: 2000, [PODS]: 10000 },
      { [CPU]: 2000, [PODS]: 10000 },
    ];
    const arrivals = [
      { at: 3, node: 0, requests: { [CPU]: 1500, [PODS]: 1000 } },
      { at: 5, node: -1, requests: { [CPU]: 1000, [PODS]: 1000 } },
    ];
    const tree = new RoomTree(available, arrivals);
    const wants = roomWants({ [CPU]: 1000, [PODS]: 1000 });
    expect(tree.next(tree.version(3), 0, wants)).toBe(0);
    expect(tree.next(tree.version(4), 0, wants)).toBe(1);
    expect(tree.version(6)).toBe(2);
    expect(tree.next(tree.version(6), 0, wants)).toBe(1);
  });
});

describe('the slots room', () => {
  it('finds the first recorded node in a range whose free room covers the wants, as a scan does', () => {
    const ops = fc.array(
      fc.record({ node: fc.nat(40), available: resources(false), free: resources(false) }),
      { maxLength: 30 },
    );
    const query = fc.record({ from: fc.nat(45), below: fc.nat(45), want: resources(false) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 41 }), ops, fc.array(query, { maxLength: 10 }), (n, sets, qs) => {
        const room = new SlotRoom(n);
        const free = new Map<number, ResourceList>();
        for (const s of sets.filter((x) => x.node < n)) {
          room.set(s.node, s.available, s.free);
          free.set(s.node, s.free);
        }
        for (const q of qs) {
          let exact = -1;
          for (let i = q.from; i < Math.min(n, q.below) && exact < 0; i++) {
            const f = free.get(i);
            if (f && fitsSum({}, tracked(q.want), f)) exact = i;
          }
          expect(room.next(q.from, q.below, roomWants(q.want))).toBe(exact);
        }
      }),
      propertyRuns(),
    );
  });
});
