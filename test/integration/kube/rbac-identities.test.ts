// The two Kubernetes identities against an emulator that enforces RBAC (local/kube-api/rbac.ts) with the
// ClusterRoles of infra/rbac: the read-only identity (consolidate, census) reads a whole pass snapshot, cold and
// warm and records events, and gets 403 on every other write; the writer keeps the write verbs and may record events.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterRoleRules, Rbac } from '../../../local/kube-api/rbac.ts';
import { KubeCluster, kubeConfigFor, makeClients } from '../../../shared/adapters/kube/index.ts';
import { node, nodeClaim, pdb, pod, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

const manifest = (file: string) =>
  readFileSync(new URL(`../../../infra/rbac/${file}`, import.meta.url), 'utf8');
const readerRules = clusterRoleRules(manifest('reader.yaml'), 'kraftsman-reader');
const writerRules = clusterRoleRules(manifest('reconciler.yaml'), 'kraftsman-reconciler');

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    rbac: new Rbac(
      new Map([
        ['reader-token', { user: 'kraftsman-reader', rules: readerRules }],
        ['writer-token', { user: 'kraftsman-reconciler', rules: writerRules }],
      ]),
    ),
  });
  h.emulator.seed([node('n1'), nodeClaim('c1'), pdb('ns', 'web', 1), pod('ns', 'p1')]);
});
afterAll(() => h.close());

const as = (token: string) => new KubeCluster(makeClients(kubeConfigFor(h.url, token)), {});
const granted = (rules: typeof readerRules) =>
  new Set(
    rules.flatMap((r) =>
      r.apiGroups.flatMap((g) => r.resources.flatMap((res) => r.verbs.map((v) => `${g}|${res}|${v}`))),
    ),
  );

describe('the read-only identity', () => {
  it('reads a pass snapshot cold and warm and records events, and its role is exactly what that uses', async () => {
    const reader = as('reader-token');
    const cold = await reader.readSnapshot();
    expect(cold.objects.nodes.map((n) => n.metadata.name)).toEqual(['n1']);
    await reader.readSnapshot(); // warm: the watch catch-up
    // Its one write, an event, and the same event after the dedupe window (read back, then counted).
    const at = new Date('2026-01-01T00:00:00Z');
    const event = {
      involved: { kind: 'Node', name: 'n1' },
      type: 'Normal',
      reason: 'Unconsolidatable',
      message: 'm',
    } as const;
    await reader.recordEvent({ ...event, at });
    await reader.recordEvent({ ...event, at: new Date(at.getTime() + 3 * 60_000) });
    const used = h.emulator.audit.used();
    const role = granted(readerRules);
    // The first requests of this emulator: all the reader's, all allowed (a refused one would have thrown).
    expect([...used].filter((u) => !role.has(u)).sort()).toEqual([]);
    expect([...role].filter((g) => !used.has(g)).sort()).toEqual([]);
  });

  it('gets 403 Forbidden on every write, and the cluster is unchanged', async () => {
    const reader = as('reader-token');
    const attempts: [string, () => Promise<unknown>][] = [
      ['taint', () => reader.addTaint('n1', { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' })],
      ['label', () => reader.patchMetadata('Node', 'n1', { labels: { a: 'b' } })],
      ['evict', () => reader.evictPod({ namespace: 'ns', name: 'p1' })],
      ['delete node', () => reader.deleteNode('n1')],
      ['delete claim', () => reader.deleteNodeClaim('c1')],
    ];
    for (const [what, attempt] of attempts) await expect(attempt(), what).rejects.toThrow(/403|[Ff]orbidden/);
    const after = await as('writer-token').getNode('n1');
    expect(after.spec?.taints ?? []).toEqual([]);
    expect(after.metadata?.labels?.a).toBeUndefined();
  });

  it('an unknown token is refused outright (401)', async () => {
    await expect(as('no-such-token').getNode('n1')).rejects.toThrow(/401|Unauthorized/);
  });
});

describe('the writer identity', () => {
  it('taints, labels and records events', async () => {
    const writer = as('writer-token');
    await writer.addTaint('n1', { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' });
    await writer.patchMetadata('Node', 'n1', { labels: { a: 'b' } });
    await writer.recordEvent({
      involved: { kind: 'Node', name: 'n1' },
      type: 'Warning',
      reason: 'DestructiveActionRefused',
      message: 'test',
    });
    expect(h.emulator.audit.count('create', 'events')).toBeGreaterThanOrEqual(1);
    expect((await writer.getNode('n1')).spec?.taints?.map((t) => t.key)).toEqual(['karpenter.sh/disrupted']);
  });
});
