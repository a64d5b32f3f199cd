// Invariants of the simulator on random fleets: capacity, requirements, tolerations, host ports, skew,
// gangs all or nothing, and independence from input order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantityMilli } from '../../../shared/model/quantity.ts';
import { catalog, node, nodePool, pod, simulate, spread } from '../../fixtures/builders/index.ts';

const ZONE = 'topology.kubernetes.io/zone';
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];

const podArb = fc.record({
  cpu: fc.constantFrom('100m', '500m', '1', '1500m', '3', '7', '20'),
  app: fc.constantFrom('a', 'b', 'c'),
  spread: fc.boolean(),
  zone: fc.option(fc.constantFrom(...ZONES), { nil: undefined }),
  tolerates: fc.boolean(),
  hostPort: fc.option(fc.constantFrom(80, 443), { nil: undefined }),
  gang: fc.option(fc.constantFrom('g1', 'g2'), { nil: undefined }),
});
const fleetArb = fc.record({
  pods: fc.array(podArb, { minLength: 1, maxLength: 14 }),
  nodes: fc.array(
    fc.record({
      type: fc.constantFrom('s-2', 's-4', 's-8'),
      zone: fc.constantFrom(...ZONES),
      tainted: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  limit: fc.option(fc.constantFrom('16', '32', '64'), { nil: undefined }),
  minMember: fc.integer({ min: 1, max: 4 }),
});

type Fleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never;

function objects(f: Fleet): Record<string, unknown>[] {
  const pool = nodePool('default', { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] });
  if (f.limit) (pool.spec as Record<string, unknown>).limits = { cpu: f.limit };
  const open = nodePool('open', {
    requirements: [{ key: ZONE, operator: 'In', values: ['us-east-1a', 'us-east-1b'] }],
  });
  const out: Record<string, unknown>[] = [pool, open];
  f.nodes.forEach((n, i) =>
    out.push(
      node(`n${i}`, {
        pool: 'default',
        type: n.type,
        zone: n.zone,
        taints: n.tainted ? [{ key: 'dedicated', effect: 'NoSchedule' }] : [],
      }),
    ),
  );
  for (const g of ['g1', 'g2'])
    out.push({
      apiVersion: 'scheduling.volcano.sh/v1beta1',
      kind: 'PodGroup',
      metadata: { name: g, namespace: 'default' },
      spec: { minMember: f.minMember },
    });
  f.pods.forEach((p, i) => {
    const spec: Record<string, unknown> = {};
    if (p.spread) Object.assign(spec, spread(ZONE, p.app));
    if (p.zone) spec.nodeSelector = { [ZONE]: p.zone };
    if (p.tolerates) spec.tolerations = [{ key: 'dedicated', operator: 'Exists' }];
    if (p.hostPort)
      spec.containers = [
        {
          name: 'c',
          resources: { requests: { cpu: p.cpu } },
          ports: [{ containerPort: p.hostPort, hostPort: p.hostPort }],
        },
      ];
    if (p.gang) spec.schedulerName = 'volcano';
    out.push(
      pod(`p${i}`, {
        cpu: p.cpu,
        labels: { app: p.app },
        spec,
        ...(p.gang ? { annotations: { 'scheduling.k8s.io/group-name': p.gang } } : {}),
      }),
    );
  });
  return out;
}

const types = catalog();
const cpuOf = (t: string) => quantityMilli(types.find((x) => x.name === t)?.capacity.cpu as string);

describe('simulator invariants on random fleets', () => {
  it('never overfills a node or claim, and every placement satisfies selectors, taints, host ports, skew and gangs', () => {
    fc.assert(
      fc.property(fleetArb, (f) => {
        const objs = objects(f);
        const s = simulate(objs, { types });
        const spec = (i: number) => f.pods[i] as Fleet['pods'][number];
        const idx = (key: string) => Number(key.replace('default/p', ''));
        const where = new Map<string, number[]>();
        for (const o of s.pods) {
          if (o.result !== 'existing' && o.result !== 'new') continue;
          const target = o.result === 'existing' ? o.node : o.nodeClaim;
          where.set(target, [...(where.get(target) ?? []), idx(o.pod)]);
        }
        for (const [target, members] of where) {
          const used = members.reduce((sum, i) => sum + quantityMilli(spec(i).cpu), 0);
          const n = f.nodes[Number(target.slice(1))];
          const claim = s.nodeClaims.find((c) => c.name === target);
          const capacity =
            n && target.startsWith('n') ? cpuOf(n.type) : cpuOf(claim?.cheapest?.instanceType as string);
          expect(used).toBeLessThanOrEqual(capacity);
          const ports = members.map((i) => spec(i).hostPort).filter((x) => x !== undefined);
          expect(new Set(ports).size).toBe(ports.length);
          for (const i of members) {
            const zone = n && target.startsWith('n') ? n.zone : s.zoneOf(`p${i}`);
            if (spec(i).zone) expect(zone).toBe(spec(i).zone);
            const tainted = n && target.startsWith('n') ? n.tainted : claim?.nodePool === 'default';
            if (tainted) expect(spec(i).tolerates).toBe(true);
          }
        }
        for (const g of ['g1', 'g2']) {
          const members = f.pods.map((p, i) => ({ p, i })).filter((x) => x.p.gang === g);
          const placed = members.filter(({ i }) =>
            ['existing', 'new'].includes(s.pods.find((o) => o.pod === `default/p${i}`)?.result as string),
          );
          expect(
            placed.length === 0 || placed.length >= Math.min(f.minMember, members.length)
              ? true
              : placed.length,
          ).toBe(true);
          if (members.length < f.minMember) expect(placed).toHaveLength(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same placements whatever the order of the input objects', () => {
    fc.assert(
      fc.property(fleetArb, fc.integer(), (f, seed) => {
        const objs = objects(f);
        const shuffled = [...objs].sort(
          (a, b) =>
            ((JSON.stringify(a).length * 31 + seed) % 7) - ((JSON.stringify(b).length * 31 + seed) % 7),
        );
        const a = simulate(objs, { types });
        const b = simulate(shuffled, { types });
        expect(b.pods.map((p) => JSON.stringify(p)).sort()).toEqual(
          a.pods.map((p) => JSON.stringify(p)).sort(),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('keeps DoNotSchedule zone skew within maxSkew, counting the pods already running', () => {
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
      { numRuns: 100 },
    );
  });
});
