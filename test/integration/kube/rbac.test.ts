// The ClusterRole in infra/rbac grants exactly what the adapter uses: every Cluster operation is run
// against the emulator, its audit log of (group, resource, verb) is compared with the role's rules.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import {
  node,
  nodeClaim,
  nodePool,
  pdb,
  pod,
  startHarness,
  type Harness,
} from '../../contracts/cluster/harness.ts';

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function granted(file = 'reconciler.yaml', kind = 'ClusterRole'): Set<string> {
  const docs = parseAllDocuments(
    readFileSync(new URL(`../../../infra/rbac/${file}`, import.meta.url), 'utf8'),
  ).map((d) => d.toJS() as { kind: string; rules?: Rule[] });
  const role = docs.find((d) => d.kind === kind);
  const out = new Set<string>();
  for (const r of role?.rules ?? [])
    for (const g of r.apiGroups)
      for (const res of r.resources) for (const v of r.verbs) out.add(`${g}|${res}|${v}`);
  return out;
}

it('grants exactly the verbs the adapter uses, no more and no less', async () => {
  h.emulator.seed([
    node('n1'),
    nodeClaim('c1'),
    nodePool('p1'),
    pdb('ns', 'web', 1),
    pod('ns', 'p1'),
    {
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'e1' },
      spec: { amiSelectorTerms: [{ alias: 'al2023@latest' }] },
    },
    { apiVersion: 'karpenter.k8s.gcp/v1alpha1', kind: 'GCENodeClass', metadata: { name: 'g1' }, spec: {} },
    {
      apiVersion: 'autoscaling.x-k8s.io/v1',
      kind: 'ProvisioningRequest',
      metadata: { namespace: 'ns', name: 'pr1' },
      spec: {
        provisioningClassName: 'check-capacity.autoscaling.x-k8s.io',
        podSets: [{ podTemplateRef: { name: 't1' }, count: 1 }],
      },
    },
  ]);
  const cluster = h.cluster();
  await cluster.readSnapshot();
  await cluster.readSnapshot(); // warm: watch
  await cluster.getNode('n1');
  await cluster.listPodsOnNode('n1');
  await cluster.addTaint('n1', { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' });
  await cluster.patchMetadata('Node', 'n1', { labels: { a: 'b' } });
  await cluster.patchMetadata('NodeClaim', 'c1', { labels: { a: 'b' } });
  await cluster.getNodeClaim('c1');
  await cluster.createNodeClaim(nodeClaim('c2') as unknown as NodeClaim);
  await cluster.updateNodeClaimStatus('c2', (s) => ({ ...s, nodeName: 'n1' }));
  await cluster.deleteNodeClaim('c2');
  await cluster.evictPod({ namespace: 'ns', name: 'p1' });
  // An event, then the same one after its dedupe window: 409 → read it → count it (create, get, patch).
  const at = new Date('2026-01-01T00:00:00Z');
  const event = {
    involved: { kind: 'Node', name: 'n1' },
    type: 'Warning',
    reason: 'Refused',
    message: 'rbac',
  } as const;
  await cluster.recordEvent({ ...event, at });
  await cluster.recordEvent({ ...event, at: new Date(at.getTime() + 3 * 60_000) });
  const pool = h.emulator.store.list(h.emulator.typeOf('NodePool'), undefined).items[0];
  await cluster.patchStatus('NodePool', 'p1', String(pool?.metadata.resourceVersion), { nodes: 0 });
  // Node-class status (lifecycle, shared/loop/nodeclass-status.ts).
  for (const [kind, name] of [
    ['EC2NodeClass', 'e1'],
    ['GCENodeClass', 'g1'],
  ] as const) {
    const nc = h.emulator.store.list(h.emulator.typeOf(kind), undefined).items[0];
    await cluster.patchStatus(kind, name, String(nc?.metadata.resourceVersion), { conditions: [] });
  }
  // A ProvisioningRequest's conditions (provision, shared/loop/provisioning-requests.ts).
  const pr = h.emulator.store.list(h.emulator.typeOf('ProvisioningRequest'), undefined).items[0];
  await cluster.patchRequestStatus({ namespace: 'ns', name: 'pr1' }, String(pr?.metadata.resourceVersion), {
    conditions: [],
  });
  await cluster.deleteNode('n1');
  const used = h.emulator.audit.used();
  const role = granted();
  expect([...used].filter((u) => !role.has(u)).sort()).toEqual([]);
  expect([...role].filter((g) => !used.has(g)).sort()).toEqual([]);
});

it("grants the launchers exactly the Secret verbs a join token takes, and the writer's role none of them", async () => {
  const before = new Set(h.emulator.audit.used());
  const cluster = h.cluster();
  const token = await cluster.issueJoinToken({
    key: 'rbac/1',
    expiresAt: new Date('2026-12-01T00:00:00Z'),
    description: 'rbac test',
  });
  await cluster.issueJoinToken({
    key: 'rbac/1',
    expiresAt: new Date('2026-12-01T00:00:00Z'),
    description: 'again',
  });
  await cluster.readJoinToken(`bootstrap-token-${token.id}`);
  const used = [...h.emulator.audit.used()].filter((u) => !before.has(u));
  expect(used.sort()).toEqual([...granted('launcher.yaml', 'Role')].sort());
  expect([...granted()].filter((g) => g.startsWith('|secrets|'))).toEqual([]);
});
