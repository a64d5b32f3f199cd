// A cluster migrated from Karpenter: its Nodes and NodeClaims hold `karpenter.sh/termination`. Once
// kraftsman has terminated the instance it releases that finalizer — only that one — through the lifecycle
// handler, so a deletion completes; another controller's finalizer keeps its object (docs/functions/lifecycle.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { pod, type E2eHarness } from '../../support/e2e/index.ts';
import { startOneTypeGpuHarness } from '../../support/e2e/gpu-pools.ts';
import { bringUp, instanceOf, lifecycleOnce, nodeOf, providerIdOf } from '../../support/e2e/steps.ts';

const KARPENTER = 'karpenter.sh/termination';
const KEEP = 'example.com/keep';

describe('Karpenter’s termination finalizer through the lifecycle handler', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startOneTypeGpuHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const hold = (kind: 'Node' | 'NodeClaim', o: KubeObject, finalizers: string[]): void => {
    h.kube.store.patch(
      h.kube.typeOf(kind),
      undefined,
      String(o.metadata.name),
      'application/merge-patch+json',
      { metadata: { finalizers } },
      undefined,
    );
  };
  const find = (kind: string, name: string): KubeObject | undefined =>
    h.list(kind).find((o) => o.metadata.name === name);

  /** One pod's claim and Node, both holding `finalizers`; then an operator's `kubectl delete node`. */
  const migratedThenDeleted = async (pool: string, finalizers: string[]) => {
    const [claim] = await bringUp(h, [
      pod(`${pool}-pod`, { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': pool } }),
    ]);
    if (!claim) throw new Error(`no NodeClaim was provisioned for ${pool}`);
    const node = nodeOf(h, claim);
    if (!node) throw new Error(`the NodeClaim ${String(claim.metadata.name)} has no Node`);
    hold('NodeClaim', claim, finalizers);
    hold('Node', node, finalizers);
    h.kube.store.delete(h.kube.typeOf('Node'), undefined, String(node.metadata.name));
    expect(find('Node', String(node.metadata.name))?.metadata.deletionTimestamp).toBeTruthy();
    return { claim: String(claim.metadata.name), node: String(node.metadata.name), id: providerIdOf(claim) };
  };

  it('terminates the instance and releases only Karpenter’s finalizer: another controller’s holds on', async () => {
    const { claim, node, id } = await migratedThenDeleted('aws-gpu', [KARPENTER, KEEP]);
    const { result } = await lifecycleOnce(h, { drainTimeoutMs: 0 });
    expect(result).toMatchObject({ drained: 1, failed: 0 });
    expect(h.ec2.world.instances.get(instanceOf(id))?.state).toMatch(/shutting-down|terminated/);
    for (const [kind, name] of [
      ['Node', node],
      ['NodeClaim', claim],
    ] as const) {
      const held = find(kind, name);
      expect(held?.metadata.finalizers, `${kind} ${name}`).toEqual([KEEP]);
      expect(held?.metadata.deletionTimestamp, `${kind} ${name}`).toBeTruthy();
    }
  });

  it('with Karpenter’s finalizer only, the Node and the NodeClaim are gone once the instance is', async () => {
    const { claim, node, id } = await migratedThenDeleted('gcp-gpu', [KARPENTER]);
    const { result } = await lifecycleOnce(h, { drainTimeoutMs: 0 });
    expect(result).toMatchObject({ drained: 1, failed: 0 });
    const [, zone = '', name = ''] = /\/([^/]+)\/([^/]+)$/.exec(id ?? '') ?? [];
    const instance = h.gce.world.instances.get(h.gce.world.key(zone, name));
    expect(instance === undefined || /STOPPING|TERMINATED/.test(String(instance.status))).toBe(true);
    expect(find('Node', node)).toBeUndefined();
    expect(find('NodeClaim', claim)).toBeUndefined();
  });

  it('releases a deleted NodeClaim whose instance is already gone (a crash after kraftsman’s terminate)', async () => {
    const [claim] = await bringUp(h, [
      pod('stale-pod', { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': 'aws-gpu' } }),
    ]);
    if (!claim) throw new Error('no NodeClaim was provisioned for aws-gpu');
    const name = String(claim.metadata.name);
    const live = h.ec2.world.instances.get(instanceOf(providerIdOf(claim)));
    if (!live) throw new Error(`no EC2 instance behind ${name}`);
    hold('NodeClaim', claim, [KARPENTER]);
    live.state = 'terminated';
    h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, name);
    expect(find('NodeClaim', name)?.metadata.finalizers).toEqual([KARPENTER]);
    // A claim deleted while its instance runs is drained and terminated first (operator-delete.test.ts).
    expect((await lifecycleOnce(h, { drainTimeoutMs: 0 })).result).toMatchObject({ failed: 0 });
    expect(find('NodeClaim', name)).toBeUndefined();
  });
});
