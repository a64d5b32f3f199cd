// The negative cache can delay a consolidation but never cause one, checked against real simulations: along a
// random timeline of passes over one fleet (pods re-versioned or added, spot prices the fingerprint does not see,
// commands completing), every single-node proposal made while skipping on cached verdicts is one a fresh census
// of the same snapshot also makes, and no candidate is skipped on the cache once a fresh simulation has found
// it actionable for a whole TTL.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCensus } from '../../../shared/disruption/census.ts';
import type { WalkHints } from '../../../shared/disruption/method.ts';
import { clearNegativeCache } from '../../../shared/disruption/negative-cache.ts';
import { runPass } from '../../../shared/disruption/pass.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { boundClaim, versioned, versionedPool } from '../../support/disruption/versioned-fleet.ts';
import { catalog, node, NOW, pod, snapshotOf, ZONES } from '../../unit/disruption/fixtures.ts';
import { propertyRuns } from '../seed.ts';

type Obj = Record<string, unknown>;
/** Undefined five times in six: most steps change nothing the fingerprint sees. */
const rarely = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: a, weight: 1 });
const TTL = 90_000;
const STEP = 60_000;

const fleetArb = fc.record({
  nodes: fc.array(
    fc.record({
      size: fc.constantFrom(4, 8, 16),
      zone: fc.nat(2),
      spot: fc.boolean(),
      pods: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  steps: fc.array(
    fc.record({
      /** Spot price as a share of on-demand: hidden from the fingerprint, bounded by the TTL. */
      spotFactor: fc.constantFrom(0.3, 1.5),
      bump: rarely(fc.nat(3)),
      add: rarely(fc.record({ node: fc.nat(3), cpu: fc.integer({ min: 1, max: 4 }) })),
      commandCompleted: fc.nat(5).map((n) => n === 0),
    }),
    { minLength: 3, maxLength: 6 },
  ),
});
type Fleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never;

/** The fleet as of `step`: versions bumped and pods added by every step up to it. */
function objects(f: Fleet, step: number): Obj[] {
  const out: Obj[] = [versionedPool('default', { capacityTypes: ['on-demand', 'spot'] }, 'pool')];
  const upTo = f.steps.slice(0, step + 1);
  f.nodes.forEach((n, i) => {
    const name = `n${i}`;
    const nodeObj = node(name, {
      type: `s-${n.size}`,
      zone: ZONES[n.zone],
      capacityType: n.spot ? 'spot' : 'on-demand',
    });
    out.push(versioned(nodeObj, '1'), boundClaim(name));
    const version = String(1 + upTo.filter((s) => s.bump === i).length);
    n.pods.forEach((cpu, j) =>
      out.push(versioned(pod(`p${i}-${j}`, { node: name, cpu: String(cpu) }), version)),
    );
  });
  upTo.forEach((s, k) => {
    if (s.add && s.add.node < f.nodes.length)
      out.push(versioned(pod(`new-${k}`, { node: `n${s.add.node}`, cpu: String(s.add.cpu) }), '1'));
  });
  return out;
}

describe('the negative cache against fresh simulations', () => {
  it('never causes a proposal a fresh census rejects, and delays one by less than the TTL', () => {
    const options = passOptions({ skipUnchangedNegatives: true, negativeCacheTtlMs: TTL });
    fc.assert(
      fc.property(fleetArb, (f) => {
        let memory: WalkHints | undefined;
        const actionableSince = new Map<string, number>();
        f.steps.forEach((s, i) => {
          const now = new Date(NOW.getTime() + i * STEP);
          const snapshot = snapshotOf(objects(f, i), catalog([2, 4, 8, 16], s.spotFactor));
          if (s.commandCompleted && memory?.negativeCache)
            memory = { ...memory, negativeCache: clearNegativeCache(memory.negativeCache) };
          const r = runPass({ snapshot, now, options, hints: memory });
          memory = r.memory;
          // the fresh answer: every candidate simulated on its own, no cache
          const fresh = new Map(runCensus(snapshot, now, passOptions({})).candidates.map((c) => [c.node, c]));
          for (const [name, c] of fresh) {
            const actionable = c.method === 'single-node-consolidation' && c.decision !== 'none';
            if (!actionable) actionableSince.delete(name);
            else if (!actionableSince.has(name)) actionableSince.set(name, now.getTime());
          }
          if (r.method === 'single-node-consolidation') {
            // the first proposal is simulated with nothing held, exactly as the census simulates it
            const first = r.commands[0];
            const c = first?.candidates[0];
            if (first && c)
              expect(fresh.get(c.name)?.decision).toBe(first.replacements.length ? 'replace' : 'delete');
          }
          for (const skip of r.skipped) {
            if (skip.reason !== 'cached-negative') continue;
            const since = actionableSince.get(skip.node);
            if (since !== undefined) expect(now.getTime() - since).toBeLessThan(TTL);
          }
        });
      }),
      propertyRuns(),
    );
  });
});
