// Properties of a pass on random small fleets: a held batch never spends more of a pool's budget than the pool
// has, never names a candidate twice, and never disrupts a node whose pods a PDB protects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../seed.ts';
import { budgetMapping } from '../../../shared/disruption/budgets.ts';
import { METHODS } from '../../../shared/disruption/methods.ts';
import { pdbLimits } from '../../../shared/disruption/pdb-limits.ts';
import { runPass } from '../../../shared/disruption/pass.ts';
import { isEvictable } from '../../../shared/disruption/pod-rules.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { node, NOW, nodePool, pdb, pod, snapshotOf, ZONES } from '../../unit/disruption/fixtures.ts';

const fleetArb = fc.record({
  pools: fc.array(fc.record({ budget: fc.constantFrom('0', '1', '2', '50%', '100%'), spot: fc.boolean() }), {
    minLength: 1,
    maxLength: 2,
  }),
  nodes: fc.array(
    fc.record({
      pool: fc.nat(1),
      size: fc.constantFrom(2, 4, 8, 16),
      zone: fc.nat(2),
      pods: fc.array(fc.record({ cpu: fc.integer({ min: 1, max: 6 }), guarded: fc.boolean() }), {
        maxLength: 3,
      }),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  backlog: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 3 }),
  maxCommands: fc.integer({ min: 1, max: 4 }),
  upstream: fc.boolean(),
});

type Fleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never;

function objects(f: Fleet): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = f.pools.map((p, i) =>
    nodePool(`pool-${i}`, {
      budgets: [{ nodes: p.budget }],
      capacityTypes: p.spot ? ['on-demand', 'spot'] : ['on-demand'],
    }),
  );
  f.nodes.forEach((n, i) => {
    const name = `node-${i}`;
    out.push(
      node(name, {
        pool: `pool-${Math.min(n.pool, f.pools.length - 1)}`,
        type: `s-${n.size}`,
        zone: ZONES[n.zone],
      }),
    );
    n.pods.forEach((p, j) => {
      const app = `app-${i}-${j}`;
      out.push(pod(app, { node: name, cpu: String(p.cpu) }));
      if (p.guarded) out.push(pdb(`pdb-${app}`, app, { minAvailable: 1 }));
    });
  });
  f.backlog.forEach((cpu, i) => out.push(pod(`pending-${i}`, { cpu: String(cpu) })));
  return out;
}

describe('a pass on a random fleet', () => {
  it('never overspends a budget, never names a candidate twice, never evicts past a PDB', () => {
    fc.assert(
      fc.property(fleetArb, (f) => {
        const snapshot = snapshotOf(objects(f));
        const r = runPass({
          snapshot,
          now: NOW,
          options: passOptions({ maxCommands: f.maxCommands, upstream: f.upstream }),
        });
        const seen = new Set<string>();
        for (const cmd of r.commands)
          for (const c of cmd.candidates) {
            expect(seen.has(c.name)).toBe(false);
            seen.add(c.name);
          }
        if (r.commands.length === 0) return;
        const reason = METHODS.find((m) => m.name === r.method)!.reason;
        const budgets = budgetMapping(
          [...snapshot.nodePools.values()].map((v) => v.pool),
          snapshot.nodes,
          reason,
          NOW,
        );
        const spent = new Map<string, number>();
        for (const cmd of r.commands)
          for (const c of cmd.candidates) spent.set(c.nodePool, (spent.get(c.nodePool) ?? 0) + 1);
        for (const [pool, n] of spent) expect(n).toBeLessThanOrEqual(budgets.get(pool) ?? 0);
        const limits = pdbLimits(snapshot.objects.pdbs, snapshot.objects.pods);
        for (const cmd of r.commands)
          for (const c of cmd.candidates) {
            for (const p of c.pods) if (isEvictable(p, NOW)) expect(limits.blockers(p)).toEqual([]);
          }
        // a single-node walk holds at most maxCommands proposals, and exactly one upstream (Karpenter)
        if (r.method === 'single-node-consolidation')
          expect(r.commands.length).toBeLessThanOrEqual(f.upstream ? 1 : f.maxCommands);
        // every other method yields one command per pass
        else expect(r.commands).toHaveLength(1);
      }),
      propertyRuns(),
    );
  });
});
