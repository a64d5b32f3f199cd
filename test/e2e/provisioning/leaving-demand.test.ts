// Pods on nodes that are leaving are provisioning demand (docs/mechanisms/provisioning-demand.md#leaving-nodes):
// as Karpenter v1.14's provisioner adds the reschedulable pods of deleting nodes to its simulation, a claim is
// launched for them while they still run — before the drain evicts them — and only once: the next batch finds
// them nominated to it, and the pod the ReplicaSet recreates after the eviction lands on it. Pods that will not be
// evicted (do-not-disrupt) get nothing. Through the provision and lifecycle handlers, against the emulators.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { refreshDisruptionBudgets } from '../../../local/kube-api/alive/disruption-budgets.ts';
import { pdb, pod, type E2eHarness } from '../../support/e2e/index.ts';
import { startOneTypeGpuHarness } from '../../support/e2e/gpu-pools.ts';
import {
  bringUp,
  claimNames,
  labelsOf,
  lifecycleOnce,
  nodeOf,
  podsOn,
  provisionOnce,
} from '../../support/e2e/steps.ts';

const KARPENTER = 'karpenter.sh/termination';
/** The emulator's default grace period is 30 s: past it, an evicted pod is gone. */
const PAST_GRACE_MS = 31_000;

describe('pods of leaving nodes are provisioning demand', () => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startOneTypeGpuHarness();
  });
  afterEach(async () => {
    await h?.close();
  });

  const patch = (kind: string, name: string, body: Record<string, unknown>): void => {
    h.kube.store.patch(
      h.kube.typeOf(kind),
      kind === 'Pod' ? 'default' : undefined,
      name,
      'application/merge-patch+json',
      body,
      undefined,
    );
  };
  /** One GPU pod of a ReplicaSet on a registered, initialized aws-gpu node whose claim holds Karpenter's finalizer. */
  const upOnAws = async (app: string, annotations: Record<string, string> = {}) => {
    const p = pod(`${app}-p0`, {
      gpus: 1,
      replicaSet: app,
      nodeSelector: { 'karpenter.sh/nodepool': 'aws-gpu' },
    });
    p.metadata.annotations = { ...annotations };
    const [claim] = await bringUp(h, [p]);
    const node = claim && nodeOf(h, claim);
    if (!claim || !node) throw new Error('no registered NodeClaim for aws-gpu');
    expect(podsOn(h, String(node.metadata.name))).toHaveLength(1);
    patch('NodeClaim', String(claim.metadata.name), { metadata: { finalizers: [KARPENTER] } });
    return { claim, node: String(node.metadata.name) };
  };
  /** `kubectl delete nodeclaim` on a claim Karpenter's finalizer holds: deleting, its Node not drained yet. */
  const deleteClaim = (claim: KubeObject): void => {
    h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, String(claim.metadata.name));
  };
  const nominations = async () => (await h.store().loadPassState(h.clusterName)).nominations;

  it('a deleting node’s pod gets its claim before the drain, once, and its recreated pod lands on it', async () => {
    const { claim, node } = await upOnAws('moving');
    deleteClaim(claim);
    const before = claimNames(h);

    const first = (await provisionOnce(h)).result;
    expect(first).toMatchObject({ claimsCreated: 1 });
    // still running where it was: the capacity comes before the eviction
    expect(podsOn(h, node).map((p) => p.metadata.name)).toEqual(['moving-p0']);
    const fresh = [...claimNames(h)].filter((n) => !before.has(n));
    expect(fresh).toHaveLength(1);
    expect((await nominations()).get('default/moving-p0')).toMatchObject({ claimName: fresh[0] });

    // The next batch finds the pod nominated to the claim coming for it: no second claim.
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 0 });

    // The drain evicts it; the ReplicaSet's new pod is pending and lands on the claim launched for it.
    await lifecycleOnce(h);
    h.clock.advance(PAST_GRACE_MS);
    await lifecycleOnce(h);
    const recreated = h
      .list('Pod')
      .filter((p) => labelsOf(p).app === 'moving' && !(p.spec as { nodeName?: string }).nodeName);
    expect(recreated).toHaveLength(1);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 0, unschedulable: 0 });
    const placed = (await nominations()).get(`default/${String(recreated[0]?.metadata.name)}`);
    const target = nodeOf(h, findClaim(fresh[0]))?.metadata.name ?? fresh[0];
    expect(placed?.nodeName ?? placed?.claimName).toBe(target);
  });

  it('a node whose termination kraftsman started (its claim gone, a PDB holding the drain) is leaving', async () => {
    const { claim, node } = await upOnAws('guarded');
    h.seed([pdb('guarded-pdb', 'guarded', 1)]);
    refreshDisruptionBudgets(h.kube);
    // a kraftsman claim holds no finalizer: the delete removes it, and lifecycle starts the Node's termination
    patch('NodeClaim', String(claim.metadata.name), { metadata: { finalizers: [] } });
    deleteClaim(claim);
    h.clock.advance(2 * 60_000); // past the grace that protects a launch whose claim status is on its way
    await lifecycleOnce(h);
    expect(podsOn(h, node).filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(1); // the PDB said 429
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1 });
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 0 });
  });

  it('a pod that will not be evicted (do-not-disrupt) gets no capacity', async () => {
    const { claim } = await upOnAws('staying', { 'karpenter.sh/do-not-disrupt': 'true' });
    deleteClaim(claim);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 0 });
  });

  const findClaim = (name: string | undefined): KubeObject => {
    const c = h.list('NodeClaim').find((o) => o.metadata.name === name);
    if (!c) throw new Error(`no NodeClaim ${String(name)}`);
    return c;
  };
});
