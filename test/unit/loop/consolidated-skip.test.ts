// The consolidated state at the use case (docs/mechanisms/consolidated-state.md), on the memory StateStore: drift
// is never gated by it (Karpenter's drift method does not ask IsConsolidated), a view stored under other pass
// options does not match, and a method that had no candidates when the view was marked is not passed over.
import { describe, expect, it } from 'vitest';
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';
import { consolidationFingerprint } from '../../../shared/disruption/consolidated-state.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { disruptionPass } from '../../../shared/loop/disruption-pass.ts';
import { boundClaim, noOpFleet } from '../../support/disruption/versioned-fleet.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';
import { NOW, node, nodePool, pod, snapshotOf } from '../disruption/fixtures.ts';

type Obj = Record<string, unknown>;

function setup() {
  const clock = { now: () => NOW };
  const store = new MemoryStateStore(clock);
  const metrics = new RecordingMetrics();
  return { store, metrics, deps: { store, clock, metrics } };
}

/** A node whose NodePool's template hash moved on: drifted (Karpenter's NodePoolDrifted). */
function driftedFleet(): Obj[] {
  const pool = nodePool('default');
  (pool.metadata as Obj).annotations = {
    'karpenter.sh/nodepool-hash': 'new',
    'karpenter.sh/nodepool-hash-version': 'v3',
  };
  const old = node('old', { type: 's-4' });
  (old.metadata as Obj).annotations = {
    'karpenter.sh/nodepool-hash': 'old',
    'karpenter.sh/nodepool-hash-version': 'v3',
  };
  return [pool, old, pod('old-app', { node: 'old', cpu: '3' })];
}

describe('the consolidated-state skip at the use case', () => {
  it('never passes drift over, even on a view every other method marked a minute ago', async () => {
    const { store, deps } = setup();
    const snapshot = snapshotOf(driftedFleet());
    const options = passOptions({});
    await store.putConsolidatedView('test', {
      fingerprint: consolidationFingerprint(snapshot, new Set(), options),
      since: new Date(NOW.getTime() - 60_000),
      methods: ['emptiness', 'multi-node-consolidation', 'single-node-consolidation'],
    });
    const r = await disruptionPass(deps, { cluster: 'test', snapshot, options });
    expect(r.outcome).not.toBe('unchanged');
    expect(r.method).toBe('drift');
  });

  it('skips the same view under the same options, not under other options', async () => {
    const { store, metrics, deps } = setup();
    const snapshot = snapshotOf(noOpFleet(2));
    expect(
      (await disruptionPass(deps, { cluster: 'test', snapshot, options: passOptions({}) })).outcome,
    ).toBe('consolidated');
    const stored = (await store.loadPassState('test')).consolidated;
    expect(
      (await disruptionPass(deps, { cluster: 'test', snapshot, options: passOptions({}) })).outcome,
    ).toBe('unchanged');
    // multi- and single-node consolidation both had candidates and had marked the view: both passed over
    expect(metrics.total('kraftsman_disruption_consolidated_skips_total')).toBe(2);
    const other = passOptions({ maxCommands: 2 });
    expect((await disruptionPass(deps, { cluster: 'test', snapshot, options: other })).outcome).toBe(
      'consolidated',
    );
    expect((await store.loadPassState('test')).consolidated?.fingerprint).not.toBe(stored?.fingerprint);
  });

  // Karpenter keeps one mark per method: emptiness, which had no candidate when the others marked the view,
  // still computes once its node turns consolidatable (a change that re-arms nothing).
  it('passes over only the methods that marked the view: a node that turns empty-and-consolidatable is taken', async () => {
    const { deps } = setup();
    const claim = boundClaim('fresh');
    (claim.status as Obj).lastPodEventTime = new Date(NOW.getTime() - 10_000).toISOString();
    const objs = [...noOpFleet(2), node('fresh', { type: 's-2' }), claim];
    const snapshot = snapshotOf(objs);
    const options = passOptions({});
    const first = await disruptionPass(deps, { cluster: 'test', snapshot, options });
    expect(first.outcome).toBe('consolidated');
    expect(first.skipped.find((s) => s.node === 'fresh')?.reason).toBe('consolidate-after');

    const later = { now: () => new Date(NOW.getTime() + 60_000) };
    const second = await disruptionPass({ ...deps, clock: later }, { cluster: 'test', snapshot, options });
    expect(second.method).toBe('emptiness');
    expect(second.commands.map((c) => c.candidates.map((x) => x.name))).toEqual([['fresh']]);
  });
});
