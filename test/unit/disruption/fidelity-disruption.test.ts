// Karpenter v1.14 disruption rules (issue 35), through the pass and the census in both modes: terminating
// StatefulSet pods stay reschedulable, and consolidateAfter guards consolidation destinations.
import { describe, expect, it } from 'vitest';
import { runCensus } from '../../../shared/disruption/census.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { validateCommand } from '../../../shared/disruption/validation.ts';
import { node, NOW, nodePool, plan, pod, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;
const MODES = [false, true] as const;

describe('terminating StatefulSet pods', () => {
  // pkg/utils/pod/scheduling.go IsReschedulable: a terminating pod owned by a StatefulSet is reschedulable (its
  // replacement is created only once it is gone), so its node is not empty
  const terminating = (owner: string): Obj => {
    const p = pod(`${owner.toLowerCase()}-0`, { node: 'n1', cpu: '1' });
    const meta = p.metadata as Obj;
    meta.deletionTimestamp = '2026-09-01T11:59:00Z';
    (meta.ownerReferences as Obj[])[0] = { apiVersion: 'apps/v1', kind: owner, name: 'db', controller: true };
    return p;
  };

  for (const upstream of MODES)
    it(`keep a node whose only pod is one from being empty (upstream: ${upstream})`, () => {
      const r = plan([nodePool('default'), node('n1', { type: 's-8' }), terminating('StatefulSet')], {
        upstream,
      });
      expect(r.commands.map((c) => [c.method, c.replacements.length])).toEqual([
        ['single-node-consolidation', 1],
      ]);
    });

  it('leave a node whose only pod is another terminating pod empty', () => {
    const r = plan([nodePool('default'), node('n1', { type: 's-8' }), terminating('ReplicaSet')]);
    expect(r.commands.map((c) => c.method)).toEqual(['emptiness']);
  });
});

describe('consolidateAfter guards destinations', () => {
  // provisioning/scheduling/scheduler.go (IsConsolidationSimulation): a node under its consolidateAfter window
  // (utils/disruption IsUnderConsolidateAfter) takes no pod of a consolidation candidate; pending pods and pods of
  // deleting nodes are exempt. Karpenter's consolidation_test.go: "should not consolidate pods onto a destination
  // node that is under its consolidateAfter window" and "... with consolidateAfter set to Never".
  const fleet = (destinationAfter: string): Obj[] => [
    nodePool('default'),
    nodePool('dest', { consolidateAfter: destinationAfter }),
    node('old', { type: 's-8' }),
    pod('old-app', { node: 'old', cpu: '1' }),
    node('fresh', { type: 's-16', pool: 'dest' }),
    pod('fresh-app', { node: 'fresh', cpu: '1', created: '2026-09-01T11:59:30Z' }),
  ];
  const decisionOf = (objs: Obj[], upstream: boolean) =>
    plan(objs, { upstream }).commands.map((c) => [c.candidates.map((x) => x.name), c.replacements.length]);

  for (const upstream of MODES)
    it(`keeps a candidate's pods off a node still in its window (upstream: ${upstream})`, () => {
      // within the window the pod cannot move onto fresh: replacing old with a cheaper node is what is left
      expect(decisionOf(fleet('1h'), upstream)).toEqual([[['old'], 1]]);
      // Never is no window: fresh takes the pod and old is deleted
      expect(decisionOf(fleet('Never'), upstream)).toEqual([[['old'], 0]]);
    });

  it('lets a pending pod onto a node in its window', () => {
    const r = plan([...fleet('1h'), pod('waiting', { cpu: '12' })], { upstream: true });
    // the backlog pod goes to fresh (upstream: every claim of the simulation would be a replacement, so a claim
    // for it would make this a no-op); old's pod still may not follow it there
    expect(r.commands.map((c) => [c.candidates.map((x) => x.name), c.replacements.length])).toEqual([
      [['old'], 1],
    ]);
  });

  it('counts the guard in the census and in validation before admission', () => {
    const snapshot = snapshotOf(fleet('1h'));
    const census = runCensus(snapshot, NOW, passOptions({}));
    expect(census.candidates.find((c) => c.node === 'old')).toMatchObject({ decision: 'replace' });
    // a delete proposed when fresh was out of its window no longer validates once it is back in it
    const v = validateCommand(
      { snapshot, now: NOW, options: passOptions({}) },
      { method: 'single-node-consolidation', candidates: [{ name: 'old' }], replacements: [] },
    );
    expect(v).toMatchObject({ valid: false, failure: 'scheduling' });
  });
});

describe('NodePool limits in a consolidation', () => {
  // disruption/helpers.go SimulateScheduling leaves the candidates out of the scheduler's state nodes, so the
  // pool's remaining limits (Scheduler.updateRemainingResources) no longer count them: a pool at its node limit
  // can still replace a node with a cheaper one
  for (const upstream of MODES)
    it(`frees the candidate's node under limits.nodes (upstream: ${upstream})`, () => {
      const pool = nodePool('default');
      (pool.spec as Obj).limits = { nodes: '1' };
      const r = plan([pool, node('old', { type: 's-8' }), pod('old-app', { node: 'old', cpu: '1' })], {
        upstream,
      });
      expect(r.commands.map((c) => [c.candidates.map((x) => x.name), c.replacements.length])).toEqual([
        [['old'], 1],
      ]);
    });
});
