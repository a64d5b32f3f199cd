// A Node deleted outright: an operator strips Karpenter's finalizer first (`kubectl patch node --type=json -p
// '[{"op":"remove","path":"/metadata/finalizers"}]'`, as people do to unstick a Node), so the API server removes it at
// once and nothing is left to drain. The lifecycle handler reads the registered claim without its Node as a
// termination request — the instance terminated, the claim deleted and released, cause `node_deleted` — instead of
// letting the claim run on until a registration timeout that a registered claim never reaches
// (docs/functions/lifecycle.md#a-node-an-operator-deletes). On both clouds. The drained path of a plain
// `kubectl delete node` is termination-finalizer.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { PROVISIONING_METRICS as M } from '../../../shared/provisioning/metric-names.ts';
import { pod, type E2eHarness } from '../../support/e2e/index.ts';
import { startOneTypeGpuHarness } from '../../support/e2e/gpu-pools.ts';
import {
  bringUp,
  instanceOf,
  labelsOf,
  lifecycleOnce,
  nodeOf,
  providerIdOf,
} from '../../support/e2e/steps.ts';

const MIN = 60_000;

describe('a Node deleted outright (its finalizer stripped) while its claim runs', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startOneTypeGpuHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const find = (kind: string, name: string): KubeObject | undefined =>
    h.list(kind).find((o) => o.metadata.name === name);
  const running = (id: string | undefined): boolean => {
    if (id?.startsWith('aws://')) return h.ec2.world.instances.get(instanceOf(id))?.state === 'running';
    const [, zone = '', name = ''] = /\/([^/]+)\/([^/]+)$/.exec(id ?? '') ?? [];
    return h.gce.world.instances.get(h.gce.world.key(zone, name))?.status === 'RUNNING';
  };

  it.each(['aws-gpu', 'gcp-gpu'])(
    '%s: the instance is terminated and the claim deleted, cause node_deleted',
    async (pool) => {
      const [claim] = await bringUp(h, [
        pod(`${pool}-deleted-node`, { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': pool } }),
      ]);
      const node = claim && nodeOf(h, claim);
      if (!claim || !node) throw new Error(`no registered NodeClaim with a Node for ${pool}`);
      const name = String(claim.metadata.name);
      const id = providerIdOf(claim);
      const before = (cause: string) =>
        h.metrics.total(M.nodeClaimsTerminatedTotal, { cause, nodepool: pool });
      const terminatedBefore = before('node_deleted');

      const nodeType = h.kube.typeOf('Node');
      h.kube.store.patch(
        nodeType,
        undefined,
        String(node.metadata.name),
        'application/json-patch+json',
        [{ op: 'remove', path: '/metadata/finalizers' }],
        undefined,
      );
      h.kube.store.delete(nodeType, undefined, String(node.metadata.name));
      expect(find('Node', String(node.metadata.name))).toBeUndefined();
      // Past any registration timeout: the claim must not be read as one that never registered.
      h.clock.advance(20 * MIN);
      const { result } = await lifecycleOnce(h);
      expect(result).toMatchObject({ outcome: 'ran', failed: 0, terminated: 1 });
      expect(running(id)).toBe(false);
      expect(find('NodeClaim', name)).toBeUndefined();
      expect(before('node_deleted') - terminatedBefore).toBe(1);
      expect(
        h.metrics.total(M.nodeClaimsDisruptedTotal, { reason: 'registration_timeout', nodepool: pool }),
      ).toBe(0);
      // Nothing is left to act on: the next run terminates nothing more.
      expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, terminated: 0 });
      expect(h.list('NodeClaim').filter((c) => labelsOf(c)['karpenter.sh/nodepool'] === pool)).toEqual([]);
    },
  );
});
