// The negative cache can delay a consolidation but never cause one: on random fleets that change between two
// passes (pods added, moved or re-versioned), every command the second pass proposes while skipping on cached
// verdicts is one a fresh validation against the same snapshot accepts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runPass } from '../../../shared/disruption/pass.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { validateCommand } from '../../../shared/disruption/validation.ts';
import { node, NOW, nodePool, pod, snapshotOf, ZONES } from '../../unit/disruption/fixtures.ts';

type Obj = Record<string, unknown>;

const fleetArb = fc.record({
  nodes: fc.array(
    fc.record({
      size: fc.constantFrom(4, 8, 16),
      zone: fc.nat(2),
      pods: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  changes: fc.array(fc.record({ node: fc.nat(4), cpu: fc.integer({ min: 1, max: 6 }), bump: fc.boolean() }), {
    maxLength: 3,
  }),
});
type Fleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never;

function objects(f: Fleet, changed: boolean): Obj[] {
  const pool = nodePool('default');
  Object.assign(pool.metadata as Obj, { uid: 'pool', generation: 1 });
  const out: Obj[] = [pool];
  f.nodes.forEach((n, i) => {
    const name = `n${i}`;
    const nodeObj = node(name, { type: `s-${n.size}`, zone: ZONES[n.zone] });
    Object.assign(nodeObj.metadata as Obj, { resourceVersion: '1' });
    out.push(nodeObj, {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: {
        name: `claim-${name}`,
        resourceVersion: '1',
        creationTimestamp: '2026-09-01T08:00:00Z',
        labels: { 'karpenter.sh/nodepool': 'default' },
      },
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
      status: {
        nodeName: name,
        lastPodEventTime: '2026-09-01T08:05:00Z',
        conditions: [{ type: 'Initialized', status: 'True' }],
      },
    });
    n.pods.forEach((cpu, j) => {
      const p = pod(`p${i}-${j}`, { node: name, cpu: String(cpu) });
      const bumped = changed && f.changes.some((c) => c.bump && c.node === i);
      Object.assign(p.metadata as Obj, { resourceVersion: bumped ? '2' : '1' });
      out.push(p);
    });
  });
  if (changed) {
    f.changes.forEach((c, k) => {
      if (c.node >= f.nodes.length || c.bump) return;
      const p = pod(`new-${k}`, { node: `n${c.node}`, cpu: String(c.cpu) });
      Object.assign(p.metadata as Obj, { resourceVersion: '1' });
      out.push(p);
    });
  }
  return out;
}

describe('the negative cache', () => {
  it('never causes a command that a fresh simulation rejects', () => {
    fc.assert(
      fc.property(fleetArb, fc.integer({ min: 1, max: 3 }), (f, maxCommands) => {
        const options = passOptions({ skipUnchangedNegatives: true, maxCommands });
        const first = runPass({ snapshot: snapshotOf(objects(f, false)), now: NOW, options });
        const snapshot = snapshotOf(objects(f, true));
        const later = new Date(NOW.getTime() + 60_000);
        const second = runPass({ snapshot, now: later, options, hints: first.memory });
        // The first proposal is validated against the snapshot as is; later ones assume it was admitted first.
        for (const cmd of second.commands.slice(0, 1)) {
          expect(validateCommand({ snapshot, now: later, options: passOptions({}) }, cmd)).toEqual({
            valid: true,
          });
        }
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
