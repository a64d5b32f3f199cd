// Beyond the fork: simulating a candidate with only the backlog pods that could interact with its pods gives
// the same verdict as the full simulation — on random fleets with a tainted pool, zone-pinned pods, spread
// constraints and a mixed backlog. So the shortcut never proposes a command the full simulation would reject.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../seed.ts';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { computeConsolidation, type Outcome } from '../../../shared/disruption/consolidation.ts';
import { consolidationFilter } from '../../../shared/disruption/method.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { node, NOW, nodePool, pod, snapshotOf, ZONES } from '../../unit/disruption/fixtures.ts';

const TAINT = { key: 'team', value: 'ml', effect: 'NoSchedule' };
const TOLERATION = { key: 'team', operator: 'Equal', value: 'ml', effect: 'NoSchedule' };

const podArb = fc.record({
  cpu: fc.integer({ min: 1, max: 7 }),
  zone: fc.option(fc.nat(2), { nil: undefined }),
  tolerates: fc.boolean(),
  spread: fc.boolean(),
});
const fleetArb = fc.record({
  nodes: fc.array(
    fc.record({
      team: fc.boolean(),
      size: fc.constantFrom(4, 8, 16),
      zone: fc.nat(2),
      pods: fc.array(podArb, { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  backlog: fc.array(podArb, { maxLength: 8 }),
});
type Fleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never;
type P = Fleet['backlog'][number];

function podObj(name: string, p: P, nodeName?: string, team = false) {
  const o = pod(name, {
    node: nodeName,
    cpu: String(p.cpu),
    labels: { app: p.spread ? 'spread' : name },
    nodeSelector:
      p.zone !== undefined ? { 'topology.kubernetes.io/zone': ZONES[p.zone] as string } : undefined,
    tolerations: p.tolerates || team ? [TOLERATION] : undefined,
  });
  if (p.spread) {
    (o.spec as Record<string, unknown>).topologySpreadConstraints = [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'spread' } },
      },
    ];
  }
  return o;
}

function objects(f: Fleet) {
  const out: Record<string, unknown>[] = [nodePool('general'), nodePool('team', { taints: [TAINT] })];
  f.nodes.forEach((n, i) => {
    out.push(
      node(`n${i}`, {
        pool: n.team ? 'team' : 'general',
        type: `s-${n.size}`,
        zone: ZONES[n.zone],
        taints: n.team ? [TAINT] : undefined,
      }),
    );
    n.pods.forEach((p, j) => out.push(podObj(`b${i}-${j}`, p, `n${i}`, n.team)));
  });
  f.backlog.forEach((p, i) => out.push(podObj(`pending-${i}`, p)));
  return out;
}

const summary = (o: Outcome) =>
  o.kind === 'no-op'
    ? o.reason
    : {
        candidates: o.command.candidates.map((c) => c.name),
        replacements: o.command.replacements.map((r) => [r.nodePool, r.instanceTypes, r.price]),
      };

describe('backlog reduction', () => {
  it("never changes a candidate's verdict", () => {
    fc.assert(
      fc.property(fleetArb, (f) => {
        const snapshot = snapshotOf(objects(f));
        const full = passContext(snapshot, NOW, passOptions({ reduceBacklog: false }));
        const reduced = passContext(snapshot, NOW, passOptions({}));
        const set = buildCandidates({ snapshot, pdbs: full.pdbs(), now: NOW });
        for (const c of set.candidates.filter((x) => consolidationFilter(x) === true)) {
          expect(summary(computeConsolidation(reduced, 'single-node-consolidation', [c]))).toEqual(
            summary(computeConsolidation(full, 'single-node-consolidation', [c])),
          );
        }
      }),
      propertyRuns(),
    );
  });
});
