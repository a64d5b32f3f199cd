// The delta simulation's node state carries what the base's pods narrowed (docs/mechanisms/delta-simulation.md,
// point 4): a pod placed on an existing node narrows the node's requirements with its own (ExistingNode.add, as
// Karpenter's), so on a key the node has no label for, a pod's `NotIn` lets a later pod's `In` on that key in. A
// node the follow holds as the base had it must hold that narrowing too, or the delta decides what the full
// simulation does not.
import { describe, expect, it } from 'vitest';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { computeConsolidation, type Outcome } from '../../../shared/disruption/consolidation.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { validateCommand } from '../../../shared/disruption/validation.ts';
import type { ClusterSnapshot } from '../../../shared/state/snapshot.ts';
import {
  gangMember,
  node,
  nodePool,
  NOW,
  pod,
  podGroup,
  snapshotOf,
  type NodeSpec,
  type PodSpec,
} from './fixtures.ts';

type Obj = Record<string, unknown>;
const CAPACITY_TYPE = 'karpenter.sh/capacity-type';
const ZONE = 'topology.kubernetes.io/zone';

/** A node without a label for `key` (a self-managed node group's, say). */
function unlabelled(name: string, key: string, s: NodeSpec): Obj {
  const n = node(name, s) as { metadata: { labels: Record<string, string> } };
  delete n.metadata.labels[key];
  return n;
}

/** A pod whose required node affinity is one expression. */
function onKey(
  name: string,
  key: string,
  operator: string,
  values: string[],
  s: PodSpec,
): Obj & { spec: Obj } {
  const p = pod(name, s) as Obj & { spec: Obj };
  p.spec.affinity = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key, operator, values }] }],
      },
    },
  };
  return p;
}

const onCapacity = (name: string, operator: string, values: string[], s: PodSpec) =>
  onKey(name, CAPACITY_TYPE, operator, values, s);

/**
 * a-self (8 CPUs, 3 bound, no capacity-type label) comes first in the node order, b-node (on-demand, 2 CPUs
 * free) next; the candidate c-cand runs x (2 CPUs, on-demand only) and y (1 CPU, not on-demand). The backlog pod
 * p1 (3 CPUs, not spot) fits only a-self: it narrows a-self to `capacity-type NotIn [spot]`. In the full
 * simulation x then fits a-self (`In [on-demand]` meets the narrowed key), which leaves y no node (a-self full,
 * b-node on-demand): y needs a spot claim. A node without p1's narrowing turns x away (no known value), x lands
 * on b-node and y on a-self: a delete the full simulation would never make.
 */
function narrowedFleet(): Obj[] {
  return [
    nodePool('default', { capacityTypes: ['on-demand', 'spot'] }),
    unlabelled('a-self', CAPACITY_TYPE, { pool: null, type: 's-8' }),
    pod('a-bound', { node: 'a-self', cpu: '3' }),
    node('b-node', { type: 's-4' }),
    pod('b-bound', { node: 'b-node', cpu: '2' }),
    node('c-cand', { type: 's-4' }),
    onCapacity('x', 'In', ['on-demand'], { node: 'c-cand', cpu: '2' }),
    onCapacity('y', 'NotIn', ['on-demand'], { node: 'c-cand', cpu: '1' }),
    onCapacity('p1', 'NotIn', ['spot'], { cpu: '3' }),
  ];
}

const summary = (o: Outcome) =>
  o.kind === 'no-op'
    ? { noOp: o.reason }
    : {
        candidates: o.command.candidates.map((c) => c.name),
        replacements: o.command.replacements.map((r) => [r.nodePool, r.instanceTypes, r.capacityType]),
      };

/** The candidate judged with the delta on and off, and what the delta answered. */
function judge(snapshot: ClusterSnapshot, name: string) {
  const fast = passContext(snapshot, NOW, passOptions({}));
  const full = passContext(snapshot, NOW, passOptions({ deltaSimulation: false }));
  const c = buildCandidates({ snapshot, pdbs: full.pdbs(), now: NOW }).candidates.find(
    (x) => x.name === name,
  );
  if (!c) throw new Error(`${name} is no candidate`);
  const delta = computeConsolidation(fast, 'single-node-consolidation', [c]);
  const upstream = computeConsolidation(full, 'single-node-consolidation', [c]);
  return { delta, upstream, outcomes: fast.deltaOutcomes };
}

describe('the delta simulation and the base pods’ narrowing', () => {
  it('agrees with the full simulation when a base pod narrowed a node on a key it has no label for', () => {
    const snapshot = snapshotOf(narrowedFleet());
    const { delta, upstream, outcomes } = judge(snapshot, 'c-cand');
    // y finds no node and goes to the claims, which the delta follows (docs/mechanisms/delta-simulation.md, point 5)
    expect(outcomes).toEqual({ decided: 1 });
    // the full simulation: x on a-self after p1, y on a spot claim
    expect(summary(upstream)).toEqual({
      candidates: ['c-cand'],
      replacements: [['default', expect.any(Array), 'spot']],
    });
    expect(summary(delta)).toEqual(summary(upstream));
    if (delta.kind === 'command')
      expect(validateCommand({ snapshot, now: NOW, options: passOptions({}) }, delta.command)).toEqual({
        valid: true,
      });
  });
});

/**
 * The same gap through the topology: a-self has no zone label; p1 (zone `NotIn [us-east-1c]`, spread by zone)
 * is admitted there and its spread pins a-self's zone to the domains it may take. The candidate's x asks for a
 * node without a zone (`DoesNotExist`), which a-self was before p1 and is not after: the full simulation finds
 * x no node. A node holding only p1's own requirement (`NotIn`, compatible with `DoesNotExist`) would take it.
 */
function zoneNarrowedFleet(): Obj[] {
  const p1 = onKey('p1', ZONE, 'NotIn', ['us-east-1c'], { cpu: '3', labels: { app: 'p1' } });
  (p1.spec as Obj).topologySpreadConstraints = [
    {
      maxSkew: 1,
      topologyKey: ZONE,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'p1' } },
    },
  ];
  return [
    nodePool('default'),
    unlabelled('a-self', ZONE, { pool: null, type: 's-8' }),
    pod('a-bound', { node: 'a-self', cpu: '3' }),
    node('b-node', { type: 's-4', zone: 'us-east-1b' }),
    pod('b-bound', { node: 'b-node', cpu: '2' }),
    node('c-cand', { type: 's-4', zone: 'us-east-1c' }),
    onKey('x', ZONE, 'DoesNotExist', [], { node: 'c-cand', cpu: '1' }),
    p1,
  ];
}

describe('the delta simulation and the base pods’ topology narrowing', () => {
  it('agrees with the full simulation when a base pod’s spread pinned a node’s missing zone', () => {
    const snapshot = snapshotOf(zoneNarrowedFleet());
    const { delta, upstream } = judge(snapshot, 'c-cand');
    expect(summary(upstream)).toEqual({ noOp: expect.any(String) });
    expect(summary(delta)).toEqual(summary(upstream));
  });
});

/**
 * The other side: a pod the follow places narrows a node, which may then take a backlog pod the base's node
 * turned away. a-self (4 CPUs free, no capacity-type label) takes the candidate's x (2 CPUs, not spot); the
 * backlog's q (1.5 CPUs, on-demand only), which the base sent to a claim (a-self had no capacity type then, the
 * candidate no room), now fits a-self; y (1 CPU) then fits no node and needs a claim. Keeping q on its claim
 * would leave y a-self's room: a delete.
 */
function widenedFleet(): Obj[] {
  return [
    nodePool('default'),
    unlabelled('a-self', CAPACITY_TYPE, { pool: null, type: 's-8' }),
    pod('a-bound', { node: 'a-self', cpu: '4' }),
    node('c-cand', { type: 's-4' }),
    onCapacity('x', 'NotIn', ['spot'], { node: 'c-cand', cpu: '2' }),
    pod('y', { node: 'c-cand', cpu: '1' }),
    onCapacity('q', 'In', ['on-demand'], { cpu: '1500m' }),
  ];
}

describe('the delta simulation and the narrowing of the pods it places', () => {
  it('agrees with the full simulation when a moved pod’s narrowing lets a backlog pod onto the node', () => {
    const snapshot = snapshotOf(widenedFleet());
    const { delta, upstream, outcomes } = judge(snapshot, 'c-cand');
    expect(outcomes).toEqual({ 'needs-claim': 1 });
    expect(summary(upstream)).toEqual({
      candidates: ['c-cand'],
      replacements: [['default', expect.any(Array), 'on-demand']],
    });
    expect(summary(delta)).toEqual(summary(upstream));
  });
});

describe('the delta simulation still answers on a narrowed node', () => {
  it('decides the full simulation’s delete when the narrowing lets the candidate’s pod in', () => {
    // d-spot (spot, 1 CPU free) takes y once x filled a-self: both runs delete c-cand
    const fleet = [
      ...narrowedFleet(),
      node('d-spot', { type: 's-2', capacityType: 'spot' }),
      pod('d-bound', { node: 'd-spot', cpu: '1' }),
    ];
    const snapshot = snapshotOf(fleet);
    const { delta, upstream, outcomes } = judge(snapshot, 'c-cand');
    expect(outcomes).toEqual({ decided: 1 });
    expect(summary(upstream)).toEqual({ candidates: ['c-cand'], replacements: [] });
    expect(summary(delta)).toEqual(summary(upstream));
  });
});

/**
 * A gang the base could not place (it rolled back) must stay the base's in the follow: no node that differs may
 * take a member. a-self (4 CPUs free, no capacity-type label) turns the gang's on-demand members away in the
 * base, and the spot-only pool opens no claim for them. The candidate's x (2 CPUs, not spot) narrows a-self to
 * `capacity-type NotIn [spot]`, after which both members (1 CPU each, `In [on-demand]`) fit there: the full
 * simulation places the gang and leaves y (500m) no node but a claim. Judging the slot by its labels alone
 * keeps the gang off it and gives y a-self's room: a delete the full simulation never makes.
 */
function narrowedGangFleet(): Obj[] {
  const member = (name: string) => gangMember(onCapacity(name, 'In', ['on-demand'], { cpu: '1' }), 'train');
  return [
    nodePool('default', { capacityTypes: ['spot'] }),
    unlabelled('a-self', CAPACITY_TYPE, { pool: null, type: 's-8' }),
    pod('a-bound', { node: 'a-self', cpu: '4' }),
    node('c-cand', { type: 's-4' }),
    onCapacity('x', 'NotIn', ['spot'], { node: 'c-cand', cpu: '2' }),
    pod('y', { node: 'c-cand', cpu: '500m' }),
    podGroup('train', 2),
    member('train-0'),
    member('train-1'),
  ];
}

describe('the delta simulation and a gang the base rolled back', () => {
  it('leaves the candidate to the full simulation when a narrowed node could now take a member', () => {
    const snapshot = snapshotOf(narrowedGangFleet());
    const { delta, upstream, outcomes } = judge(snapshot, 'c-cand');
    // the full simulation: the gang on a-self behind x, y on a spot claim
    expect(summary(upstream)).toEqual({
      candidates: ['c-cand'],
      replacements: [['default', expect.any(Array), 'spot']],
    });
    expect(outcomes).toEqual({ 'gang-displaced': 1 });
    expect(summary(delta)).toEqual(summary(upstream));
  });
});

/**
 * A gang the base placed over two rounds (its member's preferred zone exists nowhere, so the first round fails and
 * the second, relaxed, lands): the member's base node must still take it. a-self (no capacity-type label) takes
 * b (`NotIn [spot]`) and then the member m (`In [on-demand]`) in the base. In the full simulation the candidate's
 * x (`NotIn [on-demand]`) lands on a-self first, so m no longer fits there whatever its load; a-self's requirements
 * now turn m away, as its labels always did, so only the member's base node differing tells the follow.
 */
function roundsGangFleet(): Obj[] {
  const m = onCapacity('m', 'In', ['on-demand'], { cpu: '1' });
  const affinity = m.spec.affinity as Obj;
  affinity.nodeAffinity = {
    ...(affinity.nodeAffinity as Obj),
    preferredDuringSchedulingIgnoredDuringExecution: [
      {
        weight: 1,
        preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: ['us-east-1z'] }] },
      },
    ],
  };
  return [
    nodePool('default', { capacityTypes: ['on-demand', 'spot'] }),
    unlabelled('a-self', CAPACITY_TYPE, { pool: null, type: 's-8' }),
    pod('a-bound', { node: 'a-self', cpu: '1' }),
    node('c-cand', { type: 's-4' }),
    onCapacity('x', 'NotIn', ['on-demand'], { node: 'c-cand', cpu: '3' }),
    pod('y', { node: 'c-cand', cpu: '500m' }),
    onCapacity('b', 'NotIn', ['spot'], { cpu: '2' }),
    podGroup('train', 1),
    gangMember(m, 'train'),
  ];
}

describe('the delta simulation and a gang the base placed over rounds', () => {
  it('leaves the candidate to the full simulation when a member’s base node differs', () => {
    const snapshot = snapshotOf(roundsGangFleet());
    const { delta, upstream, outcomes } = judge(snapshot, 'c-cand');
    expect(outcomes).toEqual({ 'gang-displaced': 1 });
    // the full simulation: x, b and y on a-self; the member, relaxed, on an on-demand claim of the backlog's own
    expect(summary(upstream)).toEqual({ candidates: ['c-cand'], replacements: [] });
    expect(summary(delta)).toEqual(summary(upstream));
  });
});
