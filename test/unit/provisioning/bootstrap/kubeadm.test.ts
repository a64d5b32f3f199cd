// Kubeadm user data: a bash script that shellcheck passes and that, run in a sandbox with stub kubeadm, systemctl
// and nvidia-smi, writes the kubelet's flags and joins with the exact token, endpoint and CA hash.
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeClass } from '../../../../shared/model/nodeclass.ts';
import { renderUserData } from '../../../../shared/provisioning/bootstrap.ts';
import { SANDBOX_INSTANCE, sandbox, shellcheck, type Sandbox } from '../../../support/bootstrap-sandbox.ts';
import { CA_HASH, claim, ec2Class, gceClass, KUBELET_LABELS, TAINTS, TOKEN } from './fixtures.ts';

const render = (nodeClass: NodeClass = ec2Class({ amiFamily: 'Kubeadm' })): string =>
  renderUserData({ cluster: 'prod', claim: claim(), nodeClass, join: TOKEN });

const KUBELET_ARGS = `KUBELET_EXTRA_ARGS=--node-labels=${KUBELET_LABELS} --register-with-taints=${TAINTS} --max-pods=110 --provider-id=${SANDBOX_INSTANCE.aws}\n`;
const JOIN = `join api.prod.example.internal:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash ${CA_HASH}`;

let box: Sandbox | undefined;
afterEach(() => box?.remove());

describe('Kubeadm user data', () => {
  it('passes shellcheck, with and without a user script inside it', () => {
    for (const script of [
      render(),
      render(
        ec2Class({
          amiFamily: 'Kubeadm',
          userData: '#!/bin/bash\nmkdir -p /opt/site\necho "$KRAFTSMAN_NODECLAIM"',
        }),
      ),
      render(gceClass({})),
    ]) {
      const r = shellcheck(script);
      expect(r.output).toBe('');
      expect(r.status).toBe(0);
    }
  });

  it('writes the kubelet flags, waits for the GPU driver, then runs the exact kubeadm join', async () => {
    box = sandbox();
    const run = await box.run(render());
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.calls('nvidia-smi')).toEqual(['-L']);
    expect(run.calls('systemctl')).toEqual(['daemon-reload', 'enable kubelet']);
    expect(run.calls('kubeadm')).toEqual([JOIN]);
    expect(run.file('/etc/default/kubelet')).toBe(KUBELET_ARGS);
    expect(run.file('/etc/sysconfig/kubelet')).toBe(KUBELET_ARGS);
    const env = run.file('/etc/kraftsman/env') ?? '';
    expect(env).toContain("KRAFTSMAN_NODECLAIM='gpu-abc12'\n");
    expect(env).toContain(`KRAFTSMAN_CA_CERT_HASH='${CA_HASH}'\n`);
    // The token is for kubeadm only: it is not left on disk.
    expect(env).not.toContain(TOKEN.secret);
  });

  it('keeps the restricted label out of --node-labels (the lifecycle applies it after registration)', () => {
    expect(render()).not.toContain('node-role.kubernetes.io');
  });

  it('polls nvidia-smi until the driver answers, and joins without waiting on a CPU image', async () => {
    box = sandbox();
    const tries = `${box.dir}/tries`;
    box.stub(
      'nvidia-smi',
      `n=$(cat '${tries}' 2>/dev/null || echo 0); echo $((n+1)) > '${tries}'; [ "$n" -ge 2 ]`,
    );
    const run = await box.run(render());
    expect(run.calls('nvidia-smi')).toEqual(['-L', '-L', '-L']);
    expect(run.calls('sleep')).toEqual(['5', '5']);
    expect(run.calls('kubeadm')).toEqual([JOIN]);
    const cpu = sandbox();
    try {
      // No nvidia-smi anywhere on PATH: the loop is skipped.
      const script = render().replace('if command -v nvidia-smi', 'if command -v no-such-nvidia-smi');
      const r = await cpu.run(script);
      expect(r.calls('sleep')).toEqual([]);
      expect(r.calls('kubeadm')).toEqual([JOIN]);
    } finally {
      cpu.remove();
    }
  });

  it('runs the user script before the join, and a failed join fails the script', async () => {
    box = sandbox();
    box.stub('kubeadm', 'exit 1');
    const script = render(
      ec2Class({ amiFamily: 'Kubeadm', userData: '#!/bin/bash\nsystemctl start site-setup' }),
    );
    const run = await box.run(script);
    expect(run.status).toBe(1);
    expect(run.calls('systemctl')).toEqual(['start site-setup', 'daemon-reload', 'enable kubelet']);
  });

  it('refuses to render without a token or a CA hash, naming what is missing', () => {
    expect(() =>
      renderUserData({ cluster: 'prod', claim: claim(), nodeClass: ec2Class({ amiFamily: 'Kubeadm' }) }),
    ).toThrow(
      'EC2NodeClass gpu: no join token: the launcher issues one per launch or reads spec.bootstrap.joinTokenSecretRef',
    );
    const noHash = ec2Class({ amiFamily: 'Kubeadm', bootstrap: { apiServerEndpoint: 'https://x:6443' } });
    expect(() => render(noHash)).toThrow(
      'EC2NodeClass gpu: Kubeadm nodes cannot join without spec.bootstrap.caCertHash',
    );
  });
});
