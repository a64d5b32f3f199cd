// Invariants of the simulator on random GPU fleets: per-resource capacity (allocatable below capacity, DaemonSet
// overhead on new and existing capacity), selectors, taints, host ports, anti-affinity, zone skew, gangs all or
// nothing, and the same answer whatever the order of the input objects (a real permutation).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  catalog,
  node,
  nodePool,
  pod,
  simulate,
  spread,
  type Simulation,
} from '../../fixtures/builders/index.ts';
import { permute, propertyRuns } from '../seed.ts';
import {
  allocatableOf,
  ANTI_APP,
  catalogSpecs,
  daemonRunsOn,
  fleetArb,
  fleetObjects,
  fleetOf,
  isGpuType,
  nodeAllocatable,
  podVec,
  SPREAD_APP,
  ZONE,
  ZONES,
  type Fleet,
  type Vec,
} from './gpu-fleet.ts';

const KEYS = ['cpu', 'mem', 'gpu', 'nic'] as const;
const plus = (a: Vec, b: Vec): Vec => ({
  cpu: a.cpu + b.cpu,
  mem: a.mem + b.mem,
  gpu: a.gpu + b.gpu,
  nic: a.nic + b.nic,
});
const ZERO: Vec = { cpu: 0, mem: 0, gpu: 0, nic: 0 };
const sum = (vs: readonly Vec[]): Vec => vs.reduce(plus, ZERO);
const expectFits = (used: Vec, room: Vec, what: string) => {
  for (const k of KEYS) expect(used[k], `${what}: ${k}`).toBeLessThanOrEqual(room[k]);
};

interface Target {
  readonly name: string;
  readonly existing: number | undefined;
  readonly pods: number[];
}

function targets(s: Simulation): Target[] {
  const byName = new Map<string, Target>();
  for (const o of s.pods) {
    if (o.result !== 'existing' && o.result !== 'new') continue;
    const name = o.result === 'existing' ? o.node : o.nodeClaim;
    const t = byName.get(name) ?? {
      name,
      existing: o.result === 'existing' ? Number(name.slice(1)) : undefined,
      pods: [],
    };
    t.pods.push(Number(o.pod.replace('default/p', '')));
    byName.set(name, t);
  }
  return [...byName.values()];
}

/** Karpenter's reservation on an existing node: compatible daemons minus the daemon pods already there, ≥ 0. */
function pendingDaemons(f: Fleet, n: number): Vec {
  const shape = f.nodes[n] as Fleet['nodes'][number];
  const want = sum(
    f.daemons
      .filter((d) => daemonRunsOn(d, shape.type))
      .map((d) => podVec({ ...d, gpu: 0, nic: 0 } as never)),
  );
  const first = f.daemons[0];
  const running = shape.daemonRunning && first ? podVec({ ...first, gpu: 0, nic: 0 } as never) : ZERO;
  return {
    cpu: Math.max(0, want.cpu - running.cpu),
    mem: Math.max(0, want.mem - running.mem),
    gpu: 0,
    nic: 0,
  };
}

function checkTarget(f: Fleet, s: Simulation, t: Target): void {
  const shape = (i: number) => f.pods[i] as Fleet['pods'][number];
  const placed = sum(t.pods.map((i) => podVec(shape(i))));
  if (t.existing !== undefined) {
    const n = f.nodes[t.existing] as Fleet['nodes'][number];
    const bound = sum(n.bound.map((b) => ({ cpu: b.cpuMilli, mem: 128_000, gpu: 0, nic: 0 })));
    const daemonPod =
      n.daemonRunning && f.daemons[0]
        ? { cpu: f.daemons[0].cpuMilli, mem: f.daemons[0].memMi * 1000, gpu: 0, nic: 0 }
        : ZERO;
    expectFits(sum([placed, bound, daemonPod, pendingDaemons(f, t.existing)]), nodeAllocatable(n), t.name);
    if (isGpuType(n.type)) for (const i of t.pods) expect(shape(i).gpu, `${t.name} taint`).toBeGreaterThan(0);
    for (const i of t.pods)
      if (shape(i).zone && shape(i).app !== SPREAD_APP) expect(n.zone).toBe(shape(i).zone);
    const anti =
      t.pods.filter((i) => shape(i).app === ANTI_APP).length +
      n.bound.filter((b) => b.app === ANTI_APP).length;
    if (t.pods.some((i) => shape(i).app === ANTI_APP)) expect(anti, `${t.name} anti-affinity`).toBe(1);
  } else {
    const claim = s.nodeClaims.find((c) => c.name === t.name);
    expect(claim).toBeDefined();
    for (const type of claim?.instanceTypes ?? []) {
      const daemons = sum(
        f.daemons
          .filter((d) => daemonRunsOn(d, type))
          .map((d) => ({ cpu: d.cpuMilli, mem: d.memMi * 1000, gpu: 0, nic: 0 })),
      );
      expectFits(plus(placed, daemons), allocatableOf(type), `${t.name} as ${type}`);
    }
    if (claim?.nodePool === 'gpu') for (const i of t.pods) expect(shape(i).gpu).toBeGreaterThan(0);
    for (const i of t.pods)
      if (shape(i).zone && shape(i).app !== SPREAD_APP) expect(s.zoneOf(`p${i}`)).toBe(shape(i).zone);
    expect(t.pods.filter((i) => shape(i).app === ANTI_APP).length).toBeLessThanOrEqual(1);
  }
  const ports = t.pods.map((i) => shape(i).hostPort).filter((x) => x !== undefined);
  expect(new Set(ports).size, `${t.name} host ports`).toBe(ports.length);
}

function checkSpread(f: Fleet, s: Simulation): void {
  const count = (zones: (string | undefined)[]) => ZONES.map((z) => zones.filter((x) => x === z).length);
  const bound = f.nodes.flatMap((n) => n.bound.filter((b) => b.app === SPREAD_APP).map(() => n.zone));
  const before = count(bound);
  const placed = f.pods.flatMap((p, i) => {
    if (p.app !== SPREAD_APP) return [];
    const o = s.pods.find((x) => x.pod === `default/p${i}`);
    if (o?.result === 'existing') return [f.nodes[Number(o.node.slice(1))]?.zone];
    if (o?.result === 'new') return [s.zoneOf(`p${i}`)];
    return [];
  });
  const after = count([...bound, ...placed]);
  expect(Math.max(...after) - Math.min(...after)).toBeLessThanOrEqual(
    Math.max(1, Math.max(...before) - Math.min(...before)),
  );
}

function checkGangs(f: Fleet, s: Simulation): void {
  for (const g of ['g1', 'g2']) {
    const members = f.pods.map((p, i) => ({ p, i })).filter((x) => x.p.gang === g);
    const placed = members.filter(({ i }) =>
      ['existing', 'new'].includes(s.pods.find((o) => o.pod === `default/p${i}`)?.result ?? ''),
    );
    if (placed.length > 0)
      expect(placed.length).toBeGreaterThanOrEqual(Math.min(f.minMember, members.length));
    if (members.length < f.minMember) expect(placed).toHaveLength(0);
  }
}

describe('simulator invariants on random GPU fleets', () => {
  it('never overfills any resource, and every placement satisfies selectors, taints, ports, anti-affinity, skew and gangs', () => {
    fc.assert(
      fc.property(fleetArb, (f) => {
        const s = simulate(fleetObjects(f), { types: catalogSpecs(f.unavailable) });
        expect(s.pods).toHaveLength(f.pods.length);
        for (const t of targets(s)) checkTarget(f, s, t);
        checkSpread(f, s);
        checkGangs(f, s);
      }),
      propertyRuns(),
    );
  });

  it('gives the same answer whatever the order of the input objects', () => {
    fc.assert(
      fc.property(fleetOf(40), fc.integer(), (f, seed) => {
        const objs = fleetObjects(f);
        const types = catalogSpecs(f.unavailable);
        const a = simulate(objs, { types });
        const b = simulate(permute(objs, seed), { types });
        // pods are listed in input order; what each gets, and every claim, must not depend on it
        const byPod = (r: Simulation) => JSON.stringify([...r.pods].sort((x, y) => (x.pod < y.pod ? -1 : 1)));
        expect(byPod(b)).toBe(byPod(a));
        expect(JSON.stringify(b.nodeClaims)).toBe(JSON.stringify(a.nodeClaims));
      }),
      propertyRuns(),
    );
  });

  it('keeps DoNotSchedule zone skew within maxSkew, counting the pods already running', () => {
    const types = catalog();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 }),
        fc.array(fc.constantFrom(...ZONES), { maxLength: 5 }),
        fc.integer({ min: 1, max: 9 }),
        (maxSkew, runningZones, replicas) => {
          const objs: Record<string, unknown>[] = [nodePool('open')];
          runningZones.forEach((zone, i) => {
            objs.push(node(`r${i}`, { pool: 'open', zone, type: 's-2' }));
            objs.push(pod(`old-${i}`, { cpu: '1500m', labels: { app: 'w' }, node: `r${i}` }));
          });
          for (let i = 0; i < replicas; i++)
            objs.push(
              pod(`w-${i}`, { cpu: '3', labels: { app: 'w' }, spec: spread(ZONE, 'w', { maxSkew }) }),
            );
          const s = simulate(objs, { types });
          const counts = new Map(ZONES.map((z) => [z, runningZones.filter((r) => r === z).length]));
          for (let i = 0; i < replicas; i++) {
            const zone = s.zoneOf(`w-${i}`);
            expect(zone).toBeDefined();
            counts.set(zone as string, (counts.get(zone as string) ?? 0) + 1);
          }
          const values = [...counts.values()];
          const before = ZONES.map((z) => runningZones.filter((r) => r === z).length);
          // the scheduler can only add pods: skew may stay above maxSkew only where the running pods already put it
          expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(
            Math.max(maxSkew, Math.max(...before) - Math.min(...before)),
          );
        },
      ),
      propertyRuns(),
    );
  });
});
