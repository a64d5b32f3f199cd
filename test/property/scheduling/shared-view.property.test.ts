// SimulationCopy must not change answers: a simulation that leaves nodes out of a pass-scoped view places
// pods exactly as a fresh view of the cluster without those nodes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../seed.ts';
import { schedulingOptions } from '../../../shared/provisioning/simulate.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { solve } from '../../../shared/scheduling/scheduler.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { passView } from '../../../shared/state/scheduling-view.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { antiAffinity, catalog, node, nodePool, pod, spread } from '../../fixtures/builders/index.ts';

const ZONE = 'topology.kubernetes.io/zone';
const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
const types = buildInstanceTypes(catalog());

const fleet = fc.record({
  nodes: fc.array(
    fc.record({ zone: fc.constantFrom(...ZONES), pods: fc.integer({ min: 0, max: 3 }), anti: fc.boolean() }),
    { minLength: 1, maxLength: 6 },
  ),
  pending: fc.array(
    fc.record({ cpu: fc.constantFrom('500m', '1', '3'), spread: fc.boolean(), anti: fc.boolean() }),
    { minLength: 1, maxLength: 8 },
  ),
  excluded: fc.array(fc.nat(5), { maxLength: 3 }),
});

function snapshotOf(f: typeof fleet extends fc.Arbitrary<infer T> ? T : never, without: ReadonlySet<string>) {
  const objs: Record<string, unknown>[] = [nodePool()];
  f.nodes.forEach((n, i) => {
    if (without.has(`n${i}`)) return;
    objs.push(node(`n${i}`, { pool: 'default', zone: n.zone, type: 's-8' }));
    for (let j = 0; j < n.pods; j++)
      objs.push(
        pod(`b${i}-${j}`, {
          cpu: '1',
          labels: { app: 'web' },
          node: `n${i}`,
          spec: n.anti ? antiAffinity('kubernetes.io/hostname', 'web') : {},
        }),
      );
  });
  f.pending.forEach((p, i) => {
    const spec = { ...(p.spread ? spread(ZONE, 'web') : {}), ...(p.anti ? antiAffinity(ZONE, 'web') : {}) };
    objs.push(pod(`p${i}`, { cpu: p.cpu, labels: { app: 'web' }, spec }));
  });
  return buildSnapshot(recognize(objs.map((value) => ({ source: 't', value }))).objects, types);
}

function placements(view: ReturnType<typeof passView>, excluded?: ReadonlySet<string>) {
  const pending = view.snapshot.objects.pods.filter((p) => !p.spec.nodeName).map((p) => view.pendingPod(p));
  const r = solve(view.input(pending, excluded), schedulingOptions(view, false));
  return pending.map((p) => {
    const pl = r.placements.get(p.key);
    return [
      p.key,
      pl?.kind === 'existing'
        ? pl.node
        : pl?.kind === 'new'
          ? `new:${[...pl.claim.requirements.get(ZONE).values].sort().join('|')}`
          : 'none',
    ];
  });
}

describe('pass-scoped scheduling view', () => {
  it('answers a simulation that leaves nodes out exactly as a fresh view without them', () => {
    fc.assert(
      fc.property(fleet, (f) => {
        const excluded = new Set(f.excluded.map((i) => `n${i}`));
        const shared = passView(snapshotOf(f, new Set()));
        placements(shared); // warm the pass-scoped caches with a full simulation first
        const fresh = passView(snapshotOf(f, excluded));
        expect(placements(shared, excluded)).toEqual(placements(fresh));
        expect(
          fresh.snapshot.objects.pods
            .filter((p) => p.spec.nodeName)
            .every((p) => !excluded.has(p.spec.nodeName as string)),
        ).toBe(true);
      }),
      propertyRuns(),
    );
  });
});
