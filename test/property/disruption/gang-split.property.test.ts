// Property (docs/mechanisms/gangs.md, "Disruption"): over random fleets with Volcano gangs — running, below their
// minimum or opted out, free to evict or not, on shared or separate nodes, some nodes drifted or protected, tight
// or loose budgets — no command a pass proposes takes some but not all of a running gang's nodes, and the census
// never lets one go alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCensus } from '../../../shared/disruption/census.ts';
import { runPass } from '../../../shared/disruption/pass.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import {
  gangMember,
  node,
  NOW,
  nodePool,
  pod,
  podGroup,
  snapshotOf,
} from '../../unit/disruption/fixtures.ts';
import { propertyRuns } from '../seed.ts';

type Obj = Record<string, unknown>;
const HASH = { 'karpenter.sh/nodepool-hash': 'new', 'karpenter.sh/nodepool-hash-version': 'v3' };
const OLD_HASH = { 'karpenter.sh/nodepool-hash': 'old', 'karpenter.sh/nodepool-hash-version': 'v3' };

const nodeArb = fc.record({
  size: fc.constantFrom(4, 8, 16),
  drifted: fc.boolean(),
  protect: fc.constantFrom(false, false, false, false, true),
  pods: fc.array(fc.constantFrom('250m', '500m', '1', '2'), { maxLength: 2 }),
});
const gangArb = fc.record({
  /** Member i runs on node hosts[i] (modulo the fleet's size). */
  hosts: fc.array(fc.nat(20), { minLength: 1, maxLength: 5 }),
  /** minMember minus the members bound: ≤ 0 is running, > 0 waits for members. */
  shortBy: fc.constantFrom(-2, -1, 0, 0, 0, 1),
  perNode: fc.constantFrom(false, false, false, true),
  withPodGroup: fc.constantFrom(true, true, true, false),
  cpu: fc.constantFrom('250m', '500m', '1'),
  /** Members of negative priority cost nothing to evict: Karpenter would call their nodes empty. */
  cheap: fc.constantFrom(false, false, true),
});
const fleetArb = fc.record({
  nodes: fc.array(nodeArb, { minLength: 2, maxLength: 9 }),
  gangs: fc.array(gangArb, { maxLength: 3 }),
  budget: fc.constantFrom('100%', '100%', '3', '2', '1'),
  maxCommands: fc.constantFrom(1, 1, 3),
});
type Fleet = typeof fleetArb extends fc.Arbitrary<infer F> ? F : never;

function objects(f: Fleet): Obj[] {
  const out: Obj[] = [nodePool('default', { annotations: HASH, budgets: [{ nodes: f.budget }] })];
  f.nodes.forEach((n, i) => {
    const annotations = {
      ...(n.drifted ? OLD_HASH : HASH),
      ...(n.protect ? { 'karpenter.sh/do-not-disrupt': 'true' } : {}),
    };
    out.push(node(`n${i}`, { type: `s-${n.size}`, annotations }));
    n.pods.forEach((cpu, j) => out.push(pod(`n${i}-p${j}`, { node: `n${i}`, cpu })));
  });
  f.gangs.forEach((g, k) => {
    const group = podGroup(`gang-${k}`, Math.max(0, g.hosts.length + g.shortBy));
    if (g.perNode) (group.metadata as Obj).annotations = { 'kraftsman.dev/gang-disruption': 'per-node' };
    if (g.withPodGroup) out.push(group);
    g.hosts.forEach((h, m) => {
      const at = `n${h % f.nodes.length}`;
      const member = gangMember(pod(`gang-${k}-${m}`, { node: at, cpu: g.cpu }), `gang-${k}`);
      if (g.cheap) (member.spec as Obj).priority = -(2 ** 25);
      out.push(member);
    });
  });
  return out;
}

/** The oracle, from the fleet alone: each running gang's nodes (bound ≥ minimum, not opted out, ≥ 2 nodes). */
function runningGangs(f: Fleet): Set<string>[] {
  return f.gangs.flatMap((g) => {
    const minimum = g.withPodGroup ? Math.max(0, g.hosts.length + g.shortBy) : 1;
    const nodes = new Set(g.hosts.map((h) => `n${h % f.nodes.length}`));
    const running = !(g.withPodGroup && g.perNode) && g.hosts.length >= minimum && nodes.size > 1;
    return running ? [nodes] : [];
  });
}

describe('gang-aware disruption', () => {
  it('never proposes a command that takes some but not all nodes of a running gang', () => {
    const seen = { fleets: 0, withRunningGang: 0, commandsTouchingGang: 0, gangSkips: 0 };
    fc.assert(
      fc.property(fleetArb, (f) => {
        seen.fleets++;
        const gangs = runningGangs(f);
        if (gangs.length > 0) seen.withRunningGang++;
        const snapshot = snapshotOf(objects(f));
        const r = runPass({ snapshot, now: NOW, options: passOptions({ maxCommands: f.maxCommands }) });
        seen.gangSkips += r.skipped.filter((s) => s.reason === 'gang').length;
        for (const cmd of r.commands) {
          const taken = new Set(cmd.candidates.map((c) => c.name));
          for (const nodes of gangs) {
            const inside = [...nodes].filter((n) => taken.has(n)).length;
            if (inside > 0) seen.commandsTouchingGang++;
            expect(
              inside === 0 || inside === nodes.size,
              `${cmd.method} ${[...taken]} vs gang ${[...nodes]}`,
            ).toBe(true);
          }
        }
        const tied = new Set(gangs.flatMap((g) => [...g]));
        for (const e of runCensus(snapshot, NOW, passOptions({})).candidates)
          if (tied.has(e.node)) expect(e.decision, `census of ${e.node}`).toBe('none');
      }),
      propertyRuns(),
    );
    console.log(`gang-split property: ${JSON.stringify(seen)}`);
    // not vacuous: running gangs were generated, some commands moved whole gangs, and single nodes were refused
    expect(seen.withRunningGang).toBeGreaterThan(seen.fleets / 10);
    expect(seen.commandsTouchingGang).toBeGreaterThan(0);
    expect(seen.gangSkips).toBeGreaterThan(0);
  }, 300_000);
});
