// `kraftsman userdata` through the real binary (node bin/kraftsman.mjs): the user data a launch would send, as the
// launchers render it, the join token's secret redacted; bad input exits 2 naming what is wrong (docs/contract.md).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { shellcheck } from '../../support/bootstrap-sandbox.ts';
import { tempFile } from './run-cli.ts';

const BIN = join(import.meta.dirname, '../../../bin/kraftsman.mjs');
const HASH = `sha256:${'ab'.repeat(32)}`;
const CA = Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64');

function kraftsman(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'userdata', ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const pool = (nodeClassRef: Record<string, string>) => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'gpu' },
  spec: {
    template: {
      metadata: { labels: { team: 'ml' } },
      spec: {
        nodeClassRef,
        requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
        taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }],
      },
    },
  },
});
const AWS_REF = { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' };
const ec2 = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'gpu' },
  spec,
});
const LABELS =
  'karpenter.sh/capacity-type=on-demand,karpenter.sh/nodepool=gpu,node.kubernetes.io/instance-type=g5.xlarge,team=ml,topology.kubernetes.io/zone=us-east-1a';

describe('kraftsman userdata', () => {
  it('prints the Kubeadm script a launch would send, the token secret redacted, and it passes shellcheck', () => {
    const nc = tempFile(
      'nc.yaml',
      ec2({
        amiFamily: 'Kubeadm',
        bootstrap: {
          apiServerEndpoint: 'https://api.prod.example.internal:6443',
          caCertHash: HASH,
          joinTokenSecretRef: { name: 'bootstrap-token-abcdef' },
        },
      }),
    );
    const np = tempFile('np.yaml', pool(AWS_REF));
    const r = kraftsman(
      '-f',
      nc,
      '-f',
      np,
      '--instance-type',
      'g5.xlarge',
      '--cluster',
      'prod',
      '--zone',
      'us-east-1a',
    );
    expect(r.stderr).toBe(
      '# EC2 user data of a g5.xlarge for NodePool gpu (EC2NodeClass gpu, Kubeadm); the join token secret is redacted\n',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^#!\/bin\/bash\n# kraftsman bootstrap \(Kubeadm\) for NodeClaim gpu-userdata\n/,
    );
    expect(r.stdout).toContain("export KRAFTSMAN_JOIN_TOKEN='abcdef.<redacted>'\n");
    expect(r.stdout).toContain(
      `export KRAFTSMAN_KUBELET_ARGS='--node-labels=${LABELS} --register-with-taints=nvidia.com/gpu=true:NoSchedule,karpenter.sh/unregistered:NoExecute'\n`,
    );
    expect(r.stdout).toContain(`export KRAFTSMAN_CA_CERT_HASH='${HASH}'\n`);
    expect(shellcheck(r.stdout).output).toBe('');
  });

  it("prints AL2023's MIME document (the user's part, then the NodeConfig) and a GCE startup-script", async () => {
    const nc = tempFile(
      'nc.yaml',
      ec2({
        amiSelectorTerms: [{ alias: 'al2023@latest' }],
        userData: '#!/bin/bash\necho mine',
        bootstrap: { apiServerEndpoint: 'https://x.example:443', caBundle: CA, serviceCIDR: '10.100.0.0/16' },
      }),
    );
    const r = kraftsman(
      '-f',
      nc,
      '-f',
      tempFile('np.yaml', pool(AWS_REF)),
      '--instance-type',
      'g5.xlarge',
      '--cluster',
      'prod',
    );
    expect(r.code).toBe(0);
    const mail = await PostalMime.parse(r.stdout, { attachmentEncoding: 'utf8' });
    expect(mail.attachments.map((a) => a.mimeType)).toEqual([
      'text/x-shellscript',
      'application/node.eks.aws',
    ]);
    expect(String(mail.attachments[1]?.content)).toContain('cidr: "10.100.0.0/16"');

    const gceClass = (spec: Record<string, unknown>) =>
      tempFile('gce.yaml', {
        apiVersion: 'karpenter.k8s.gcp/v1alpha1',
        kind: 'GCENodeClass',
        metadata: { name: 'gpu' },
        spec,
      });
    const gcpPool = tempFile(
      'np.yaml',
      pool({ group: 'karpenter.k8s.gcp', kind: 'GCENodeClass', name: 'gpu' }),
    );
    const KUBEADM = { apiServerEndpoint: 'https://10.0.0.1:6443', caCertHash: HASH };
    const own = gceClass({
      imageSelectorTerms: [{ id: 'projects/p/global/images/family/k8s-gpu' }],
      bootstrap: KUBEADM,
    });
    const g = kraftsman('-f', own, '-f', gcpPool, '--instance-type', 'g2-standard-8');
    expect(g.code).toBe(0);
    expect(g.stderr).toContain(
      '# Compute Engine startup-script of a g2-standard-8 for NodePool gpu (GCENodeClass gpu, Kubeadm, image projects/p/global/images/family/k8s-gpu, GPU driver: user)',
    );
    expect(g.stdout).toContain("export KRAFTSMAN_JOIN_TOKEN='<issued-per-launch>.<redacted>'\n");

    // COS ships no NVIDIA driver: on a GPU machine the script installs it first, before the user's join.
    const cos = gceClass({
      imageSelectorTerms: [{ alias: 'cos@latest' }],
      bootstrap: { script: '#!/bin/bash\n/opt/bin/join-cluster' },
    });
    const c = kraftsman('-f', cos, '-f', gcpPool, '--instance-type', 'g2-standard-8');
    expect(c.code).toBe(0);
    expect(c.stderr).toContain(
      '(GCENodeClass gpu, Custom, image projects/cos-cloud/global/images/family/cos-stable, GPU driver: startup-script)',
    );
    expect(c.stdout).toMatch(
      /^#!\/bin\/bash\n# kraftsman: Container-Optimized OS ships no NVIDIA driver.*\ncos-extensions install gpu\n/,
    );
    expect(c.stdout.indexOf('cos-extensions install gpu')).toBeLessThan(
      c.stdout.indexOf('/opt/bin/join-cluster'),
    );
    const cpu = kraftsman('-f', cos, '-f', gcpPool, '--instance-type', 'n2-standard-8');
    expect(cpu.code).toBe(0);
    expect(cpu.stdout).not.toContain('cos-extensions');

    // A Kubeadm node cannot join on a public image (no kubeadm there), nor without an image.
    const kubeadmOnCos = gceClass({ imageSelectorTerms: [{ alias: 'cos' }], bootstrap: KUBEADM });
    const onCos = kraftsman('-f', kubeadmOnCos, '-f', gcpPool, '--instance-type', 'g2-standard-8');
    expect(onCos.code).toBe(2);
    expect(onCos.stderr).toContain(
      'GCENodeClass gpu: Kubeadm nodes cannot join on image alias cos: its public image holds no kubeadm',
    );
    const noImage = gceClass({ bootstrap: KUBEADM });
    const refused = kraftsman('-f', noImage, '-f', gcpPool, '--instance-type', 'g2-standard-8');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'GCENodeClass gpu: spec.imageSelectorTerms must name an image (id or alias)',
    );
  });

  it('exits 2 naming the missing file, what the node class lacks, an unknown type, a missing node class', () => {
    const np = tempFile('np.yaml', pool(AWS_REF));
    const missing = kraftsman('-f', '/nonexistent/nc.yaml', '-f', np, '--instance-type', 'g5.xlarge');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/nonexistent/nc.yaml');
    expect(missing.stdout).toBe('');

    const noHash = tempFile('nc.yaml', ec2({ bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443' } }));
    const cannot = kraftsman('-f', noHash, '-f', np, '--instance-type', 'g5.xlarge');
    expect(cannot).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: EC2NodeClass gpu: Kubeadm nodes cannot join without spec.bootstrap.caCertHash\n',
    });

    const ok = tempFile(
      'nc.yaml',
      ec2({ bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443', caCertHash: HASH } }),
    );
    expect(kraftsman('-f', ok, '-f', np, '--instance-type', 'zz.huge').stderr).toBe(
      'error: unknown instance type "zz.huge": not in the built-in catalog for aws\n',
    );
    expect(kraftsman('-f', np, '--instance-type', 'g5.xlarge').stderr).toBe(
      'error: NodePool gpu: its EC2NodeClass gpu is not in the input\n',
    );
    expect(kraftsman('-f', ok, '-f', np).stderr).toMatch(/^error: userdata needs --instance-type TYPE\n/);
  });
});
