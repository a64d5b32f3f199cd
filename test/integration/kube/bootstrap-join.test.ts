// The Kubeadm join end to end against the Kubernetes emulator: the launcher's bootstrap token (a Secret in
// kube-system, through KubeCluster), the rendered script run in a sandbox whose stub `kubeadm join` posts the Node
// with that token as its bearer token — and the emulator's bootstrap-token authentication refusing a wrong or
// expired token (kube-apiserver's rules, local/kube-api/README.md).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderUserData } from '../../../shared/provisioning/bootstrap.ts';
import type { JoinToken } from '../../../shared/model/join-readiness.ts';
import { SANDBOX_INSTANCE, sandbox, type Sandbox } from '../../support/bootstrap-sandbox.ts';
import { startHarness, type Harness } from '../../contracts/cluster/harness.ts';
import { claim, ec2Class } from '../../unit/provisioning/bootstrap/fixtures.ts';

const NOW = new Date('2026-11-30T00:00:00Z');

/** `kubeadm join` collapsed: read the kubelet flags kraftsman wrote, register the Node with the bootstrap token. */
const KUBEADM = `
import { readFileSync } from 'node:fs';
const args = process.argv.slice(2);
const token = args[args.indexOf('--token') + 1];
const extra = readFileSync(process.env.KRAFTSMAN_ROOT + '/etc/default/kubelet', 'utf8');
const flag = (n) => new RegExp('--' + n + '=(\\\\S*)').exec(extra)?.[1] ?? '';
const labels = Object.fromEntries(flag('node-labels').split(',').filter(Boolean).map((p) => p.split('=')));
const taints = flag('register-with-taints').split(',').filter(Boolean).map((t) => {
  const [kv, effect] = t.split(':');
  const [key, value] = kv.split('=');
  return value === undefined ? { key, effect } : { key, value, effect };
});
const res = await fetch(process.env.KUBE_URL + '/api/v1/nodes', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
  body: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: process.env.NODE_NAME, labels }, spec: { taints, providerID: flag('provider-id') } }),
});
if (res.status !== 201) {
  console.error('join refused: ' + res.status + ' ' + (await res.text()));
  process.exit(1);
}
`;

let h: Harness;
let box: Sandbox | undefined;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => box?.remove());

async function join(token: JoinToken, nodeName: string) {
  const script = renderUserData({
    cluster: 'prod',
    claim: claim(),
    nodeClass: ec2Class({ amiFamily: 'Kubeadm' }),
    join: token,
  });
  box = sandbox();
  box.nodeStub('kubeadm', KUBEADM);
  return await box.run(script, { KUBE_URL: h.url, NODE_NAME: nodeName });
}

const nodeNamed = (name: string) => h.emulator.store.find(h.emulator.typeOf('Node'), undefined, name);

describe('a Kubeadm node joins with the token its launcher issued', () => {
  it('issues a kubeadm bootstrap-token Secret, and the same one again for the same launch', async () => {
    const cluster = h.cluster();
    const request = {
      key: 'gpu-abc12/uid-1/123',
      expiresAt: new Date('2026-11-30T01:00:00Z'),
      description: 'launch',
    };
    const token = await cluster.issueJoinToken(request);
    expect(token.id).toMatch(/^[a-z0-9]{6}$/);
    expect(token.secret).toMatch(/^[a-z0-9]{16}$/);
    expect(await cluster.issueJoinToken(request)).toEqual(token);
    expect(await cluster.readJoinToken(`bootstrap-token-${token.id}`)).toEqual(token);
    const secret = h.emulator.store.get(
      h.emulator.typeOf('Secret'),
      'kube-system',
      `bootstrap-token-${token.id}`,
    );
    const data = Object.fromEntries(
      Object.entries((secret as unknown as { data: Record<string, string> }).data).map(([k, v]) => [
        k,
        Buffer.from(v, 'base64').toString('utf8'),
      ]),
    );
    expect((secret as { type?: string }).type).toBe('bootstrap.kubernetes.io/token');
    expect(data).toEqual({
      'token-id': token.id,
      'token-secret': token.secret,
      expiration: '2026-11-30T01:00:00Z',
      description: 'launch',
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
      'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
    });
  });

  it('registers the Node with the kubelet labels and taints through kubeadm join', async () => {
    const token = await h.cluster().issueJoinToken({
      key: 'gpu-abc12/uid-2/123',
      expiresAt: new Date(NOW.getTime() + 3_600_000),
      description: 'launch',
    });
    const run = await join(token, 'ip-10-0-0-1');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const node = nodeNamed('ip-10-0-0-1');
    expect(node?.metadata.labels).toEqual({
      'karpenter.sh/nodepool': 'gpu',
      'node.kubernetes.io/instance-type': 'g5.xlarge',
      team: 'ml',
    });
    expect((node?.spec as { taints?: unknown }).taints).toEqual([
      { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
      { key: 'example.com/warming', effect: 'NoSchedule' },
      { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
    ]);
    // The instance it runs on, read from the metadata service: what the lifecycle registers the claim by.
    expect((node?.spec as { providerID?: string }).providerID).toBe(SANDBOX_INSTANCE.aws);
  });

  it('is refused with a wrong secret, an unknown id, or an expired token: 401, no Node', async () => {
    const good = await h.cluster().issueJoinToken({
      key: 'gpu-abc12/uid-3/123',
      expiresAt: new Date(NOW.getTime() + 3_600_000),
      description: 'launch',
    });
    const expired = await h.cluster().issueJoinToken({
      key: 'gpu-abc12/uid-4/123',
      expiresAt: new Date(NOW.getTime() - 1000),
      description: 'launch',
    });
    const cases: [string, JoinToken][] = [
      ['wrong-secret', { id: good.id, secret: 'zzzzzzzzzzzzzzzz' }],
      ['unknown-id', { id: 'qqqqqq', secret: good.secret }],
      ['expired', expired],
    ];
    for (const [name, token] of cases) {
      const run = await join(token, name);
      expect(run.status, name).toBe(1);
      expect(run.stderr, name).toContain('join refused: 401');
      expect(nodeNamed(name), name).toBeUndefined();
      box?.remove();
    }
  });

  it('lets a bootstrap token create a Node and nothing else (403)', async () => {
    const token = await h.cluster().issueJoinToken({
      key: 'gpu-abc12/uid-5/123',
      expiresAt: new Date(NOW.getTime() + 3_600_000),
      description: 'launch',
    });
    const res = await fetch(`${h.url}/api/v1/namespaces/kube-system/secrets`, {
      headers: { authorization: `Bearer ${token.id}.${token.secret}` },
    });
    expect(res.status).toBe(403);
  });

  it('reads only bootstrap-token Secrets through joinTokenSecretRef, naming what is wrong', async () => {
    h.emulator.seed([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'not-a-token', namespace: 'kube-system' },
        type: 'Opaque',
      },
    ]);
    await expect(h.cluster().readJoinToken('not-a-token')).rejects.toThrow(
      'Secret kube-system/not-a-token is not a bootstrap token (type bootstrap.kubernetes.io/token with token-id [a-z0-9]{6} and token-secret [a-z0-9]{16})',
    );
    await expect(h.cluster().readJoinToken('bootstrap-token-none00')).rejects.toThrow(/not found/);
  });
});
