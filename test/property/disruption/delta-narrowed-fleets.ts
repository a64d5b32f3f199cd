// Random fleets where pods narrow nodes on keys the nodes have no label for (docs/mechanisms/delta-simulation.md,
// point 4): self-managed nodes without a capacity-type or zone label beside managed on-demand and spot nodes, and
// pods requiring `NotIn`/`In` on the capacity type, `DoesNotExist`/`NotIn` on the zone, some spreading or
// repelling by zone. A `NotIn` placed on such a node lets a later `In` on that key in; a zone spread pins the
// missing zone to the domains it may take. Pending gangs whose members need such a key: a gang the base could not
// place, or placed over several rounds, must stay the base's unless no node that differs could take a member.
import fc from 'fast-check';
import {
  ec2NodeClass,
  gangMember,
  node,
  nodePool,
  pod,
  podGroup,
  ZONES,
} from '../../unit/disruption/fixtures.ts';

type Obj = Record<string, unknown>;
const CAPACITY_TYPE = 'karpenter.sh/capacity-type';
const ZONE = 'topology.kubernetes.io/zone';

const NEEDS = [
  'none',
  'none',
  'not-spot',
  'on-demand',
  'not-on-demand',
  'spot',
  'no-zone',
  'not-zone-a',
] as const;
const narrowedPodArb = fc.record({
  app: fc.constantFrom('web', 'api'),
  millis: fc.constantFrom(250, 500, 1000, 1500, 2000),
  needs: fc.constantFrom(...NEEDS),
  topology: fc.constantFrom('none', 'none', 'zone-spread', 'zone-anti'),
  created: fc.nat(5),
});
type NarrowedPod = typeof narrowedPodArb extends fc.Arbitrary<infer T> ? T : never;
/** A pod's shape; a gang's members carry an app of their own. */
type PodShape = Omit<NarrowedPod, 'app'> & { readonly app: string };
/** Pods that need `instead` where they would need nothing. */
const needing = (instead: NarrowedPod['needs']) =>
  narrowedPodArb.map((p) => ({ ...p, needs: p.needs === 'none' ? instead : p.needs }));

export const narrowedFleetArb = fc.record({
  nodes: fc.array(
    fc.record({
      size: fc.constantFrom(2, 4, 8),
      zone: fc.nat(2),
      /** Self-managed without a label for the capacity type, the zone or both; else managed, on-demand or spot. */
      kind: fc.constantFrom('on-demand', 'on-demand', 'spot', 'no-capacity', 'no-zone', 'no-both'),
      pods: fc.array(narrowedPodArb, { maxLength: 5 }),
    }),
    { minLength: 2, maxLength: 8 },
  ),
  backlog: fc.array(narrowedPodArb, { maxLength: 25 }),
  /** Pending Volcano gangs: `short` members fewer than minMember are allowed to fail. */
  gangs: fc.array(
    fc.record({
      size: fc.integer({ min: 2, max: 4 }),
      short: fc.nat(1),
      member: needing('on-demand'),
    }),
    { maxLength: 2 },
  ),
  /** What the pool launches: a spot-only pool opens no claim for an on-demand pod, so its gang rolls back. */
  pool: fc.constantFrom('on-demand', 'both', 'spot'),
});
/**
 * Narrowed fleets built around gangs: a self-managed node without a capacity-type label first in the node order
 * (its bound pods may narrow it, or a moved `NotIn [spot]` pod will), a few managed nodes, pending gangs whose
 * members need on-demand capacity, and a pool that may launch only spot (the gangs then roll back in the base).
 */
export const narrowedGangFleetArb = fc.record({
  nodes: fc
    .tuple(
      fc.record({
        size: fc.constantFrom(4, 8),
        zone: fc.nat(2),
        kind: fc.constant('no-capacity' as const),
        pods: fc.array(narrowedPodArb, { maxLength: 3 }),
      }),
      fc.array(
        fc.record({
          size: fc.constantFrom(2, 4),
          zone: fc.nat(2),
          kind: fc.constantFrom('on-demand' as const, 'spot' as const),
          pods: fc.array(needing('not-spot'), { minLength: 1, maxLength: 3 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([self, managed]) => [self, ...managed]),
  backlog: fc.array(narrowedPodArb, { maxLength: 4 }),
  gangs: fc.array(
    fc.record({
      size: fc.integer({ min: 2, max: 3 }),
      short: fc.constant(0),
      member: narrowedPodArb.map((p) => ({ ...p, needs: 'on-demand' as const, topology: 'none' as const })),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  pool: fc.constantFrom('spot' as const, 'both' as const),
});

export type NarrowedFleet = typeof narrowedFleetArb extends fc.Arbitrary<infer T> ? T : never;

const expression = (key: string, operator: string, values: string[] = []) => ({ key, operator, values });

function needsOf(p: PodShape): Obj | undefined {
  switch (p.needs) {
    case 'not-spot':
      return expression(CAPACITY_TYPE, 'NotIn', ['spot']);
    case 'on-demand':
      return expression(CAPACITY_TYPE, 'In', ['on-demand']);
    case 'not-on-demand':
      return expression(CAPACITY_TYPE, 'NotIn', ['on-demand']);
    case 'spot':
      return expression(CAPACITY_TYPE, 'In', ['spot']);
    case 'no-zone':
      return expression(ZONE, 'DoesNotExist');
    case 'not-zone-a':
      return expression(ZONE, 'NotIn', [ZONES[0] as string]);
    default:
      return undefined;
  }
}

function podObj(name: string, p: PodShape, host?: string): Obj {
  const o = pod(name, {
    node: host,
    cpu: `${p.millis}m`,
    labels: { app: p.app },
    created: `2026-09-01T0${p.created}:00:00Z`,
  });
  const spec = o.spec as Obj;
  const needs = needsOf(p);
  const selector = { labelSelector: { matchLabels: { app: p.app } } };
  const affinity: Obj = {};
  if (needs)
    affinity.nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [needs] }] },
    };
  if (p.topology === 'zone-anti')
    affinity.podAntiAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: ZONE, ...selector }],
    };
  if (Object.keys(affinity).length) spec.affinity = affinity;
  if (p.topology === 'zone-spread')
    spec.topologySpreadConstraints = [
      { maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule', ...selector },
    ];
  return o;
}

export function narrowedFleetObjects(f: NarrowedFleet): Obj[] {
  const out: Obj[] = [
    nodePool('default', {
      capacityTypes: f.pool === 'both' ? ['on-demand', 'spot'] : [f.pool],
    }),
    ec2NodeClass(),
  ];
  f.nodes.forEach((n, i) => {
    const name = `n${i}`;
    const managed = n.kind === 'on-demand' || n.kind === 'spot';
    const o = node(name, {
      type: `s-${n.size}`,
      zone: ZONES[n.zone],
      capacityType: n.kind === 'spot' ? 'spot' : 'on-demand',
      ...(managed ? {} : { pool: null }),
    });
    const labels = (o.metadata as { labels: Record<string, string> }).labels;
    if (n.kind === 'no-capacity' || n.kind === 'no-both') delete labels[CAPACITY_TYPE];
    if (n.kind === 'no-zone' || n.kind === 'no-both') delete labels[ZONE];
    out.push(o);
    n.pods.forEach((p, j) => out.push(podObj(`b${i}-${j}`, p, name)));
  });
  f.backlog.forEach((p, i) => out.push(podObj(`pending-${i}`, p)));
  f.gangs.forEach((g, k) => {
    const group = `gang-${k}`;
    out.push(podGroup(group, Math.max(1, g.size - g.short)));
    for (let m = 0; m < g.size; m++)
      out.push(gangMember(podObj(`${group}-${m}`, { ...g.member, app: 'train' }), group));
  });
  return out;
}
