// The node class's kubelet configuration reaches every family's user data: nodeadm's inline KubeletConfiguration
// (read back from the MIME part, checked against the kubelet's own field names), Bottlerocket's settings.kubernetes
// keys (read back with smol-toml), and the kubelet flags a Kubeadm node writes (run in the stubbed sandbox).
import PostalMime from 'postal-mime';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderUserData } from '../../../../shared/provisioning/bootstrap.ts';
import { SANDBOX_INSTANCE, sandbox, shellcheck, type Sandbox } from '../../../support/bootstrap-sandbox.ts';
import { claim, ec2Class, gceClass, TOKEN } from './fixtures.ts';

const KUBELET = {
  maxPods: 58,
  podsPerCore: 8,
  systemReserved: { cpu: '500m', memory: '2Gi' },
  kubeReserved: { cpu: '250m', 'ephemeral-storage': '2Gi' },
  evictionHard: { 'memory.available': '5%', 'nodefs.available': '10%' },
  evictionSoft: { 'memory.available': '1Gi' },
  evictionSoftGracePeriod: { 'memory.available': '1m30s' },
  evictionMaxPodGracePeriod: 60,
  imageGCHighThresholdPercent: 85,
  imageGCLowThresholdPercent: 70,
  cpuCFSQuota: false,
  clusterDNS: ['10.100.0.10', '10.100.0.11'],
};

/** KubeletConfiguration (kubelet.config.k8s.io/v1beta1) fields as nodeadm merges them: the names must be the kubelet's. */
const inlineKubeletSchema = z.strictObject({
  maxPods: z.number().int(),
  podsPerCore: z.number().int(),
  systemReserved: z.record(z.string(), z.string()),
  kubeReserved: z.record(z.string(), z.string()),
  evictionHard: z.record(z.string(), z.string()),
  evictionSoft: z.record(z.string(), z.string()),
  evictionSoftGracePeriod: z.record(z.string(), z.string()),
  evictionMaxPodGracePeriod: z.number().int(),
  imageGCHighThresholdPercent: z.number().int(),
  imageGCLowThresholdPercent: z.number().int(),
  cpuCFSQuota: z.boolean(),
  clusterDNS: z.array(z.ipv4()),
  registerWithTaints: z.array(z.object({ key: z.string(), effect: z.string() })),
});

let box: Sandbox | undefined;
afterEach(() => box?.remove());

describe('the kubelet configuration in the user data', () => {
  it('AL2023: every field lands in the NodeConfig’s inline kubelet config, under the kubelet’s names', async () => {
    const text = renderUserData({
      cluster: 'prod',
      claim: claim(),
      nodeClass: ec2Class({ amiSelectorTerms: [{ alias: 'al2023@latest' }], kubelet: KUBELET }),
    });
    const mail = await PostalMime.parse(text, { attachmentEncoding: 'utf8' });
    const doc = parseYaml(String(mail.attachments.at(-1)?.content ?? '')) as {
      spec: { kubelet: { config: unknown } };
    };
    const config = inlineKubeletSchema.parse(doc.spec.kubelet.config);
    expect(config).toMatchObject(KUBELET);
  });

  it('Bottlerocket: every field lands in settings.kubernetes under Bottlerocket’s keys', () => {
    const { podsPerCore: _refusedOnBottlerocket, ...kubelet } = KUBELET;
    const doc = parseToml(
      renderUserData({
        cluster: 'prod',
        claim: claim(),
        nodeClass: ec2Class({ amiSelectorTerms: [{ alias: 'bottlerocket@latest' }], kubelet }),
      }),
    ) as { settings: { kubernetes: Record<string, unknown> } };
    expect(doc.settings.kubernetes).toMatchObject({
      'max-pods': 58,
      'system-reserved': { cpu: '500m', memory: '2Gi' },
      'kube-reserved': { cpu: '250m', 'ephemeral-storage': '2Gi' },
      'eviction-hard': { 'memory.available': '5%', 'nodefs.available': '10%' },
      'eviction-soft': { 'memory.available': '1Gi' },
      'eviction-soft-grace-period': { 'memory.available': '1m30s' },
      'eviction-max-pod-grace-period': 60,
      'image-gc-high-threshold-percent': '85',
      'image-gc-low-threshold-percent': '70',
      'cpu-cfs-quota-enforced': false,
      'cluster-dns-ip': ['10.100.0.10', '10.100.0.11'],
    });
  });

  it('Kubeadm (EC2 and GCE): the kubelet flags are written where kubeadm’s drop-in reads them, and shellcheck passes', async () => {
    const flags = [
      '--max-pods=58',
      '--pods-per-core=8',
      '--system-reserved=cpu=500m,memory=2Gi',
      '--kube-reserved=cpu=250m,ephemeral-storage=2Gi',
      '--eviction-hard=memory.available<5%,nodefs.available<10%',
      '--eviction-soft=memory.available<1Gi',
      '--eviction-soft-grace-period=memory.available=1m30s',
      '--eviction-max-pod-grace-period=60',
      '--image-gc-high-threshold=85',
      '--image-gc-low-threshold=70',
      '--cpu-cfs-quota=false',
      '--cluster-dns=10.100.0.10,10.100.0.11',
    ].join(' ');
    for (const [nodeClass, providerId] of [
      [ec2Class({ amiFamily: 'Kubeadm', kubelet: KUBELET }), SANDBOX_INSTANCE.aws],
      [gceClass({ kubeletConfiguration: KUBELET }), SANDBOX_INSTANCE.gcp],
    ] as const) {
      const script = renderUserData({ cluster: 'prod', claim: claim(), nodeClass, join: TOKEN });
      expect(shellcheck(script).output).toBe('');
      box = sandbox();
      const run = await box.run(script);
      expect(run.status).toBe(0);
      expect(run.file('/etc/default/kubelet')).toMatch(
        new RegExp(` ${`${flags} --provider-id=${providerId}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`),
      );
      box.remove();
      box = undefined;
    }
  });
});
