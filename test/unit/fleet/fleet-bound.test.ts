// The fleet's cost floor with placement kept (report/fleet-bound.ts): the assignment LP on hand-computed
// cases (a class confined to a pool, DaemonSet room, a fractional mix), then on the ramp fleet, where it must
// stay under both the scheduler's fresh packing and what the fleet's nodes cost.
import { describe, expect, it } from 'vitest';
import { fleetCatalog } from '../../../local/fleet/catalog.ts';
import type { Pod } from '../../../shared/model/pod.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { FLOOR_MAX_PODS, fleetBound, lpBound } from '../../../local/fleet/report/fleet-bound.ts';
import { assignmentBound } from '../../../local/fleet/report/lower-bound.ts';
import type { NodeOption, PodClass } from '../../../local/fleet/report/pod-classes.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';

const option = (id: string, price: number, room: Record<string, number>): NodeOption => ({ id, price, room });
const cls = (demand: Record<string, number>, options: number[], pods = 1): PodClass => ({
  pods,
  demand,
  options,
});

describe('assignmentBound', () => {
  it('a class confined to a dearer option pays for it; the rest takes the cheapest', () => {
    const options = [option('tainted/small', 1, { cpu: 4000 }), option('open/large', 1.5, { cpu: 8000 })];
    // X may only use the small type: 8 cpu = two of them ($2). Y may use either: one large ($1.5).
    const b = assignmentBound([cls({ cpu: 8000 }, [0]), cls({ cpu: 8000 }, [0, 1])], options);
    expect(b).toBeCloseTo(3.5, 9);
    // Pooled, as the divisible bound pools them (16 cpu at the large type's $0.1875/cpu), it would say 3.
    expect(assignmentBound([cls({ cpu: 16000 }, [0, 1])], options)).toBeCloseTo(3, 9);
  });

  it('prices the room a type has left once its DaemonSets run, not its allocatable', () => {
    // 4 cpu less a 1-cpu DaemonSet: 6 cpu of pods need two nodes' worth of room.
    expect(assignmentBound([cls({ cpu: 6000 }, [0])], [option('p/t', 1, { cpu: 3000 })])).toBeCloseTo(2, 9);
  });

  it('mixes two shapes fractionally when two resources bind', () => {
    const options = [
      option('p/cpu-heavy', 1, { cpu: 2000, memory: 1000 }),
      option('p/mem-heavy', 1, { cpu: 1000, memory: 2000 }),
    ];
    // 3 cpu and 3 memory: one of each covers it exactly ($2); either shape alone needs three ($3).
    expect(assignmentBound([cls({ cpu: 3000, memory: 3000 }, [0, 1])], options)).toBeCloseTo(2, 9);
    expect(assignmentBound([cls({ cpu: 3000, memory: 3000 }, [0])], options)).toBeCloseTo(3, 9);
  });

  it('is zero with nothing to place', () => {
    expect(assignmentBound([], [option('p/t', 1, { cpu: 1000 })])).toBe(0);
  });
});

describe('fleetBound on the ramp fleet', () => {
  const seed = Number(process.env.KRAFTSMAN_SEED ?? Date.now() % 100_000);
  const objects = () =>
    recognize(
      generateRamp({ nodes: 12, pending: 0, seed }).objects.map((value) => ({ source: 'ramp', value })),
    ).objects;
  const catalog = fleetCatalog();
  const nodeCost = (o: ReturnType<typeof objects>): number =>
    o.nodes.reduce((s, n) => {
      const l = n.metadata.labels ?? {};
      const t = catalog.instanceTypes.find((x) => x.name === l['node.kubernetes.io/instance-type']);
      const offer = t?.offerings.find(
        (x) =>
          x.zone === l['topology.kubernetes.io/zone'] && x.capacityType === l['karpenter.sh/capacity-type'],
      );
      return s + (offer?.price ?? 0);
    }, 0);

  it(`stays under the fresh packing and the fleet's own cost (KRAFTSMAN_SEED=${seed})`, () => {
    console.log(`fleet-bound: KRAFTSMAN_SEED=${seed}`);
    const o = objects();
    const b = fleetBound(o, catalog);
    if (!b) throw new Error('a 12-node fleet is under FLOOR_MAX_PODS');
    expect(b.unserved).toEqual([]);
    expect(b.unplaced).toBe(0);
    expect(b.lpPerHour).toBeGreaterThan(0);
    expect(b.lpPerHour).toBeLessThanOrEqual(b.packingPerHour + 1e-6);
    expect(b.lpPerHour).toBeLessThanOrEqual(nodeCost(o) + 1e-6);
  });

  it('is the LP the per-minute chart line draws (lpBound): one bound, the summary’s end figure and the line', () => {
    const o = objects();
    const b = fleetBound(o, catalog);
    expect(lpBound(o, catalog)).toEqual({
      lpPerHour: b?.lpPerHour,
      classes: b?.classes,
      unserved: b?.unserved,
    });
  });

  it('rises with a DaemonSet every node must carry, and names a pod no pool admits', () => {
    const o = objects();
    const base = fleetBound(o, catalog);
    if (!base) throw new Error('a 12-node fleet is under FLOOR_MAX_PODS');
    const [ds] = o.daemonSets;
    if (!ds) throw new Error('the ramp fleet has DaemonSets');
    const heavy = structuredClone(ds);
    heavy.metadata.name = 'heavy-agent';
    const container = heavy.spec.template.spec.containers[0];
    if (!container) throw new Error('a DaemonSet has a container');
    container.resources = { requests: { cpu: '2', memory: '4Gi' } };
    expect(fleetBound({ ...o, daemonSets: [...o.daemonSets, heavy] }, catalog)?.lpPerHour).toBeGreaterThan(
      base.lpPerHour,
    );
    const bound = o.pods.find(
      (p) => p.spec.nodeName && !p.metadata.ownerReferences?.some((r) => r.kind === 'DaemonSet'),
    );
    if (!bound) throw new Error('the ramp fleet has running pods');
    const nowhere: Pod = structuredClone(bound);
    nowhere.metadata.name = 'pinned-nowhere';
    nowhere.spec.nodeSelector = { 'kraftsman.dev/gpu-model': 'no-such-gpu' };
    const b = fleetBound({ ...o, pods: [...o.pods, nowhere] }, catalog);
    expect(b?.unserved).toEqual([`${nowhere.metadata.namespace ?? 'default'}/pinned-nowhere`]);
  });

  it('is not computed above FLOOR_MAX_PODS running pods (the summary keeps the divisible bound)', () => {
    const big = recognize(
      generateRamp({ nodes: 300, pending: 0, seed }).objects.map((value) => ({ source: 'ramp', value })),
    ).objects;
    // the bound counts the running pods a fresh packing would place: DaemonSet pods are not among them
    const running = big.pods.filter(
      (p) => p.spec.nodeName && !p.metadata.ownerReferences?.some((r) => r.kind === 'DaemonSet'),
    );
    expect(running.length).toBeGreaterThan(FLOOR_MAX_PODS);
    expect(fleetBound(big, catalog)).toBeUndefined();
    expect(lpBound(big, catalog)).toBeUndefined();
  });
});
