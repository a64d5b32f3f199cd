// The delta simulation and a gang it re-places (docs/mechanisms/delta-simulation.md, point 6): the scheduler places
// a gang on one cloud (place-gang.ts), undoing a placement that spans two and trying each cloud alone, which the
// follow's member-by-member placement does not do. Shrunk from the delta property's random fleets (seed 1940638628).
import { describe, expect, it } from 'vitest';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { computeConsolidation, type Outcome } from '../../../shared/disruption/consolidation.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { validateCommand } from '../../../shared/disruption/validation.ts';
import { gangMember, node, nodePool, NOW, pod, podGroup, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;

/**
 * a-node (AWS, 2 CPUs) runs a-bound (1 CPU); c-cand (AWS, 4 CPUs) runs x (half a CPU); z-gcp (a self-managed
 * Google Cloud node, 2 CPUs) is empty and last in the node order. The gang g (3 members of 1 CPU, minMember 3) is
 * pending, ahead of x in the queue. The base puts g-0 on a-node and g-1, g-2 on c-cand. Without c-cand the
 * scheduler first puts g-0 on a-node and g-1, g-2 on z-gcp: two clouds, so it undoes that and tries Google Cloud
 * alone (two members fit, no pool there: refused) and then AWS (g-0 on a-node, two on a new claim). x then finds
 * z-gcp empty: a delete. Followed member by member, g-1 and g-2 stay on z-gcp and x finds no node: a replace.
 */
function splitGangFleet(): Obj[] {
  const member = (i: number) => gangMember(pod(`g-${i}`, { cpu: '1' }), 'g', false);
  return [
    nodePool('default'),
    node('a-node', { type: 's-2' }),
    pod('a-bound', { node: 'a-node', cpu: '1' }),
    node('c-cand', { type: 's-4' }),
    pod('x', { node: 'c-cand', cpu: '500m' }),
    node('z-gcp', {
      pool: null,
      type: 's-2',
      zone: 'us-central1-a',
      labels: { 'kraftsman.dev/cloud': 'gcp' },
    }),
    podGroup('g', 3),
    member(0),
    member(1),
    member(2),
  ];
}

/**
 * The same rule for a gang of the backlog the base placed whole: a-node (AWS, 4 CPUs) runs 2.5 CPUs, b-node (AWS, 2
 * CPUs) and z-gcp (Google Cloud, self-managed, 2 CPUs, last) run 1 CPU each; c-cand runs x (1.5 CPUs, ahead of the
 * gang in the queue) and y (half a CPU, after it). The base puts g-0 on a-node and g-1 on b-node. Without c-cand,
 * x takes a-node's room, g-0 goes to b-node and g-1 to z-gcp: two clouds, so the scheduler places the gang again on
 * AWS alone (g-0 on b-node, g-1 on a new claim) and y finds z-gcp's room: a delete. Re-placed member by member,
 * g-1 stays on z-gcp and y finds no node: a replace.
 */
function splitBacklogGangFleet(): Obj[] {
  const member = (i: number) => gangMember(pod(`g-${i}`, { cpu: '1' }), 'g', false);
  return [
    nodePool('default'),
    node('a-node', { type: 's-4' }),
    pod('a-bound', { node: 'a-node', cpu: '2500m' }),
    node('b-node', { type: 's-2' }),
    pod('b-bound', { node: 'b-node', cpu: '1' }),
    node('c-cand', { type: 's-4' }),
    pod('x', { node: 'c-cand', cpu: '1500m' }),
    pod('y', { node: 'c-cand', cpu: '500m' }),
    node('z-gcp', {
      pool: null,
      type: 's-2',
      zone: 'us-central1-a',
      labels: { 'kraftsman.dev/cloud': 'gcp' },
    }),
    pod('z-bound', { node: 'z-gcp', cpu: '1' }),
    podGroup('g', 2),
    member(0),
    member(1),
  ];
}

const summary = (o: Outcome) =>
  o.kind === 'no-op'
    ? { noOp: o.reason }
    : {
        candidates: o.command.candidates.map((c) => c.name),
        replacements: o.command.replacements.map((r) => [r.nodePool, r.instanceTypes, r.capacityType]),
      };

/** c-cand judged with the delta on and off: both outcomes, and why the delta answered or not. */
function judge(fleet: Obj[]) {
  const snapshot = snapshotOf(fleet);
  const fast = passContext(snapshot, NOW, passOptions({}));
  const full = passContext(snapshot, NOW, passOptions({ deltaSimulation: false }));
  const c = buildCandidates({ snapshot, pdbs: full.pdbs(), now: NOW }).candidates.find(
    (x) => x.name === 'c-cand',
  );
  if (!c) throw new Error('c-cand is no candidate');
  const delta = computeConsolidation(fast, 'single-node-consolidation', [c]);
  const upstream = computeConsolidation(full, 'single-node-consolidation', [c]);
  if (delta.kind === 'command')
    expect(validateCommand({ snapshot, now: NOW, options: passOptions({}) }, delta.command)).toEqual({
      valid: true,
    });
  return { delta: summary(delta), upstream: summary(upstream), outcomes: fast.deltaOutcomes };
}

describe('the delta simulation and a gang placed on one cloud', () => {
  it('leaves a gang of the candidate whose members it re-places on two clouds to the full simulation', () => {
    const { delta, upstream, outcomes } = judge(splitGangFleet());
    // the full simulation: the gang on AWS (a-node and a claim), x on z-gcp — a delete
    expect(upstream).toEqual({ candidates: ['c-cand'], replacements: [] });
    expect(delta).toEqual(upstream);
    // the delta does not follow the gang's second placement: it leaves the candidate to the full simulation
    expect(outcomes).toEqual({ 'gang-cloud': 1 });
  });

  it('leaves a backlog gang it re-places onto two clouds to the full simulation', () => {
    const { delta, upstream, outcomes } = judge(splitBacklogGangFleet());
    // the full simulation: x on a-node, the gang on AWS (b-node and a claim), y on z-gcp — a delete
    expect(upstream).toEqual({ candidates: ['c-cand'], replacements: [] });
    expect(delta).toEqual(upstream);
    expect(outcomes).toEqual({ 'gang-cloud': 1 });
  });
});
