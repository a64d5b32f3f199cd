// Gang-heavy and spread-heavy fleets for the delta-simulation property (issue 36, item 5), built with the random
// fleets' objects (delta-fleets.ts): running gangs spread across nodes beside pending gangs in the backlog, some
// opting out with `kraftsman.dev/gang-disruption: per-node`; services spreading by zone and hostname with maxSkew
// 1–2, DoNotSchedule or ScheduleAnyway (docs/mechanisms/delta-simulation.md, points 2–4 and 6).
import fc from 'fast-check';
import { GANG_DISRUPTION } from '../../../shared/model/labels.ts';
import { fleetObjects, type DeltaFleet } from './delta-fleets.ts';

type Obj = Record<string, unknown>;
const APPS = ['web', 'api', 'cache', 'batch', 'infer', 'train'] as const;

const pod = (topology: fc.Arbitrary<DeltaFleet['backlog'][number]['topology']>) =>
  fc.record({
    app: fc.constantFrom(...APPS),
    millis: fc.constantFrom(250, 500, 1000, 1500, 2000),
    memMi: fc.constantFrom(128, 512, 2048),
    gpus: fc.constantFrom(0, 0, 0, 1),
    efa: fc.constant(0),
    topology,
    created: fc.nat(5),
    doNotDisrupt: fc.constant(false),
  });
const plainPod = pod(fc.constantFrom('none', 'none', 'none', 'zone-spread', 'host-spread'));
const spreadPod = pod(fc.constantFrom('zone-spread', 'zone-spread', 'host-spread', 'host-spread', 'none'));
const node = (p: typeof plainPod) =>
  fc.record({
    // CPU types (0-2 aws, 5-6 gcp) mostly, so running members have hosts; GPU ones (3, 4, 7) for GPU pods
    type: fc.constantFrom(0, 1, 2, 5, 6, 0, 1, 5, 3, 4, 7),
    zone: fc.nat(2),
    pods: fc.array(p, { maxLength: 5 }),
    state: fc.constant(0),
  });

/** A fleet whose gangs run spread over the CPU nodes (member m of gang k on host k+m) and wait in the backlog. */
export const gangHeavyArb = fc.record({
  fleet: fc.record<DeltaFleet>({
    nodes: fc.array(node(plainPod), { minLength: 3, maxLength: 10 }),
    backlog: fc.array(plainPod, { minLength: 10, maxLength: 60 }),
    gangs: fc.array(
      fc.record({
        size: fc.integer({ min: 2, max: 6 }),
        short: fc.nat(2),
        millis: fc.constantFrom(500, 1000, 2000),
        gpus: fc.constantFrom(0, 0, 1),
        // 0: all pending; more: that many running, the rest pending
        running: fc.constantFrom(0, 0, 1, 2, 3, 6),
      }),
      { minLength: 2, maxLength: 6 },
    ),
    pdbs: fc.constant<DeltaFleet['pdbs']>([]),
    pdbMax: fc.constant(0),
    spot: fc.boolean(),
    slow: fc.constant(-1),
  }),
  /** Per gang (by index): its PodGroup opts out with `kraftsman.dev/gang-disruption: per-node`. */
  perNode: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
});
export type GangHeavyFleet = typeof gangHeavyArb extends fc.Arbitrary<infer T> ? T : never;

export function gangHeavyObjects(f: GangHeavyFleet): Obj[] {
  const out = fleetObjects(f.fleet);
  for (const o of out) {
    if (o.kind !== 'PodGroup') continue;
    const meta = o.metadata as { name: string; annotations?: Record<string, string> };
    const k = Number(meta.name.replace('gang-', ''));
    if (f.perNode[k]) meta.annotations = { [GANG_DISRUPTION]: 'per-node' };
  }
  return out;
}

/** How a service spreads: its skew, what it does when unsatisfiable, and whether it spreads by both keys. */
const spreadSpec = fc.record({
  maxSkew: fc.constantFrom(1, 2),
  whenUnsatisfiable: fc.constantFrom('DoNotSchedule', 'DoNotSchedule', 'ScheduleAnyway'),
  both: fc.boolean(),
});

/** Services spreading by zone and hostname over tight CPU nodes, with a backlog of the same services. */
export const spreadHeavyArb = fc.record({
  fleet: fc.record<DeltaFleet>({
    nodes: fc.array(node(spreadPod), { minLength: 3, maxLength: 9 }),
    backlog: fc.array(spreadPod, { minLength: 5, maxLength: 40 }),
    gangs: fc.constant<DeltaFleet['gangs']>([]),
    pdbs: fc.constant<DeltaFleet['pdbs']>([]),
    pdbMax: fc.constant(0),
    spot: fc.boolean(),
    slow: fc.constant(-1),
  }),
  /** Per app (APPS order): how its pods spread. */
  specs: fc.array(spreadSpec, { minLength: APPS.length, maxLength: APPS.length }),
});
export type SpreadHeavyFleet = typeof spreadHeavyArb extends fc.Arbitrary<infer T> ? T : never;

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';

export function spreadHeavyObjects(f: SpreadHeavyFleet): Obj[] {
  const out = fleetObjects(f.fleet);
  for (const o of out) {
    if (o.kind !== 'Pod') continue;
    const spec = o.spec as { topologySpreadConstraints?: Obj[] };
    const [own] = spec.topologySpreadConstraints ?? [];
    if (!own) continue;
    const app = ((o.metadata as Obj).labels as Record<string, string>).app as (typeof APPS)[number];
    const s = f.specs[APPS.indexOf(app)] ?? { maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule', both: false };
    const constraint = (key: string) => ({
      ...own,
      topologyKey: key,
      maxSkew: s.maxSkew,
      whenUnsatisfiable: s.whenUnsatisfiable,
    });
    spec.topologySpreadConstraints = s.both
      ? [constraint(ZONE), constraint(HOST)]
      : [constraint(own.topologyKey as string)];
  }
  return out;
}
