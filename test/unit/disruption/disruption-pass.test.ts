// The disruption pass use case against the StateStore port (memory adapter): what one pass learns — coverage
// and no-op verdicts — is persisted and read back by the next; open commands and nominations protect their
// nodes; a cleared cache (a completed command) stops skipping; metrics name the outcome, and each skip its
// method and NodePool.
import { describe, expect, it } from 'vitest';
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { disruptionPass } from '../../../shared/loop/disruption-pass.ts';
import type { Metrics } from '../../../shared/ports/metrics.ts';
import { noOpFleet } from '../../support/disruption/versioned-fleet.ts';
import { node, NOW, nodePool, pod, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;

function setup() {
  const clock = { now: () => NOW };
  const store = new MemoryStateStore(clock);
  const recorded: { name: string; labels?: Readonly<Record<string, string>> }[] = [];
  const metrics: Metrics = {
    count: (name, _v, labels) => void recorded.push({ name, labels }),
    gauge: (name, _v, labels) => void recorded.push({ name, labels }),
    observe: (name, _v, labels) => void recorded.push({ name, labels }),
  };
  return { store, metrics, recorded, deps: { store, clock, metrics } };
}

/** Admits command cmd-1 as admission would, under the admission lock: it stays open. */
async function openCommand(store: MemoryStateStore, candidates: string[], replacements: string[] = []) {
  const fence = await store.acquireLease({
    cluster: 'test',
    name: 'admission',
    owner: 'tester',
    ttlMs: 60_000,
  });
  await store.admitCommand(fence, {
    id: 'cmd-1',
    method: 'single-node-consolidation',
    decision: replacements.length > 0 ? 'replace' : 'delete',
    candidates,
    replacements,
  });
}

const request = (objs: Obj[], skip = false) => ({
  cluster: 'test',
  snapshot: snapshotOf(objs),
  options: passOptions({ skipUnchangedNegatives: skip }),
});

describe('the disruption pass through the StateStore port', () => {
  it('persists no-op verdicts and coverage, and the next pass skips on them when switched on', async () => {
    const { store, deps } = setup();
    const first = await disruptionPass(deps, request(noOpFleet(2)));
    expect(first.outcome).toBe('consolidated');
    const state = await store.loadPassState('test');
    expect([...state.negativeCache.keys()].sort()).toEqual(['n0', 'n1']);
    const second = await disruptionPass(deps, request(noOpFleet(2), true));
    expect(second.skipped.map((s) => s.reason)).toEqual(['cached-negative', 'cached-negative']);
    expect(second.outcome).toBe('no-proposals');
  });

  it('stops skipping once a completed command cleared the cache', async () => {
    const { store, deps } = setup();
    await disruptionPass(deps, request(noOpFleet(2)));
    await store.clearNegativeCache('test');
    const r = await disruptionPass(deps, request(noOpFleet(2), true));
    expect(r.skipped.map((s) => s.reason)).toEqual(['no-cheaper-replacement', 'no-cheaper-replacement']);
  });

  it('keeps nodes named by an open command out of the pass', async () => {
    const { store, deps } = setup();
    await openCommand(store, ['n0']);
    const r = await disruptionPass(deps, request(noOpFleet(2)));
    expect(r.skipped).toContainEqual({ node: 'n0', reason: 'claimed-by-pending-command' });
  });

  it("counts an open command's replacement as nominated, so it is not deleted before the pods move", async () => {
    const { store, deps } = setup();
    await openCommand(store, ['n0'], ['claim-n1']);
    const r = await disruptionPass(deps, request(noOpFleet(3)));
    expect(r.skipped).toContainEqual({ node: 'n0', reason: 'claimed-by-pending-command' });
    expect(r.skipped).toContainEqual({ node: 'n1', reason: 'nominated' });
    const n2 = r.skipped.filter((s) => s.node === 'n2').map((s) => s.reason);
    expect(n2).not.toContain('nominated');
    expect(n2).not.toContain('claimed-by-pending-command');
  });

  it('labels each skip reason with the NodePool of the node it passed over', async () => {
    const { deps, recorded } = setup();
    const batch = nodePool('batch');
    const pinned = node('pinned', { type: 's-4', pool: 'batch' });
    (pinned.metadata as Obj).annotations = { 'karpenter.sh/do-not-disrupt': 'true' };
    // Full, so the default pool's pod has nowhere else to go and its node stays a no-op.
    const full = pod('pinned-app', { node: 'pinned', cpu: '3' });
    await disruptionPass(deps, request([...noOpFleet(1), batch, pinned, full]));
    const skips = recorded.filter((r) => r.name === 'kraftsman_disruption_candidate_skips_total');
    expect(skips).toContainEqual({
      name: 'kraftsman_disruption_candidate_skips_total',
      labels: { reason: 'no-cheaper-replacement', method: 'single-node-consolidation', nodepool: 'default' },
    });
    expect(skips).toContainEqual({
      name: 'kraftsman_disruption_candidate_skips_total',
      labels: { reason: 'do-not-disrupt', method: 'none', nodepool: 'batch' },
    });
    expect(skips.every((r) => r.labels?.nodepool === 'default' || r.labels?.nodepool === 'batch')).toBe(true);
  });

  it('emits the pass outcome, stage timings and skip reasons, each labelled with the method that skipped', async () => {
    const { deps, recorded } = setup();
    await disruptionPass(deps, request(noOpFleet(1)));
    const names = new Set(recorded.map((r) => r.name));
    expect(names).toContain('kraftsman_disruption_pass_outcomes_total');
    expect(names).toContain('kraftsman_disruption_pass_stage_duration_seconds');
    expect(names).toContain('kraftsman_disruption_walk_depth');
    expect(names).toContain('kraftsman_disruption_walk_cycle_coverage');
    expect(recorded).toContainEqual({
      name: 'kraftsman_disruption_candidate_skips_total',
      labels: { reason: 'no-cheaper-replacement', method: 'single-node-consolidation', nodepool: 'default' },
    });
  });
});
