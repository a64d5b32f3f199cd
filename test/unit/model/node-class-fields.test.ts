// Every node class field kraftsman reads is honoured or refused: a field it does not implement fails validation
// naming the node class and the field path (never accepted and ignored), and the implemented ones carry Karpenter's
// and the clouds' rules (EBS volume types, IOPS, throughput, sizes; kubelet keys and CEL rules; GCE disks).
import { describe, expect, it } from 'vitest';
import { recognize } from '../../../shared/state/recognize.ts';

const ec2 = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'gpu' },
  spec: { amiSelectorTerms: [{ alias: 'al2023@latest' }], ...spec },
});
const gce = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.gcp/v1alpha1',
  kind: 'GCENodeClass',
  metadata: { name: 'tpu' },
  spec: { imageSelectorTerms: [{ alias: 'cos' }], ...spec },
});

/** The error recognize() raises for the object, or '' when it is accepted. */
function refusal(value: unknown): string {
  try {
    recognize([{ source: 'classes.yaml', value }]);
    return '';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

describe('a node class field kraftsman does not implement is refused, by name', () => {
  it.each([
    [
      ec2({ instanceStorePolicy: 'RAID0' }),
      'EC2NodeClass gpu: spec.instanceStorePolicy is not implemented by kraftsman',
    ],
    [ec2({ context: 'arn' }), 'EC2NodeClass gpu: spec.context is not implemented by kraftsman'],
    [
      ec2({ kubelet: { shutdownGracePeriod: '30s' } }),
      'EC2NodeClass gpu: spec.kubelet.shutdownGracePeriod is not implemented by kraftsman',
    ],
    [
      ec2({
        blockDeviceMappings: [
          { deviceName: '/dev/xvda', ebs: { volumeSize: '20Gi', volumeInitializationRate: 100 } },
        ],
      }),
      'EC2NodeClass gpu: spec.blockDeviceMappings[0].ebs.volumeInitializationRate is not implemented by kraftsman',
    ],
    [
      ec2({ metadataOptions: { httpTokens: 'required', instanceMetadataTags: 'enabled' } }),
      'EC2NodeClass gpu: spec.metadataOptions.instanceMetadataTags is not implemented by kraftsman',
    ],
    [
      ec2({ bootstrap: { apiServerEndpoint: 'https://api:6443', caHash: 'x' } }),
      'EC2NodeClass gpu: spec.bootstrap.caHash is not implemented by kraftsman',
    ],
    [
      gce({ shieldedInstanceConfig: {} }),
      'GCENodeClass tpu: spec.shieldedInstanceConfig is not implemented by kraftsman',
    ],
    [
      gce({ disks: [{ category: 'hyperdisk-balanced', sizeGiB: 100, provisionedIOPS: 3000 }] }),
      'GCENodeClass tpu: spec.disks[0].provisionedIOPS is not implemented by kraftsman',
    ],
  ])('%#: %s', (obj, message) => {
    expect(refusal(obj)).toContain(message);
  });

  it('names every refused field at once, beside the other problems', () => {
    const message = refusal(
      ec2({ instanceStorePolicy: 'RAID0', ipPrefixCount: 1, kubelet: { maxPods: -1 } }),
    );
    expect(message).toContain('spec.instanceStorePolicy is not implemented by kraftsman');
    expect(message).toContain('spec.ipPrefixCount is not implemented by kraftsman');
    expect(message).toContain('spec.kubelet.maxPods:');
  });

  it('accepts every field it implements', () => {
    expect(
      refusal(
        ec2({
          amiFamily: 'AL2023',
          role: 'NodeRole',
          tags: { team: 'ml' },
          associatePublicIPAddress: false,
          detailedMonitoring: true,
          blockDeviceMappings: [
            {
              deviceName: '/dev/xvda',
              rootVolume: true,
              ebs: {
                volumeSize: '500Gi',
                volumeType: 'gp3',
                iops: 3000,
                throughput: 125,
                encrypted: true,
                kmsKeyID: 'k',
                deleteOnTermination: true,
                snapshotID: 'snap-1',
              },
            },
          ],
          metadataOptions: {
            httpEndpoint: 'enabled',
            httpProtocolIPv6: 'disabled',
            httpPutResponseHopLimit: 2,
            httpTokens: 'required',
          },
          kubelet: {
            maxPods: 110,
            podsPerCore: 10,
            systemReserved: { cpu: '100m', memory: '100Mi', 'ephemeral-storage': '1Gi', pid: '100' },
            kubeReserved: { cpu: '200m' },
            evictionHard: { 'memory.available': '5%', 'nodefs.available': '10%' },
            evictionSoft: { 'memory.available': '500Mi' },
            evictionSoftGracePeriod: { 'memory.available': '1m30s' },
            evictionMaxPodGracePeriod: 60,
            imageGCHighThresholdPercent: 85,
            imageGCLowThresholdPercent: 80,
            cpuCFSQuota: true,
            clusterDNS: ['10.100.0.10'],
          },
        }),
      ),
    ).toBe('');
    expect(
      refusal(
        gce({
          serviceAccount: 'nodes@p.iam.gserviceaccount.com',
          serviceAccountScopes: ['https://www.googleapis.com/auth/cloud-platform'],
          disks: [{ boot: true, category: 'pd-ssd', sizeGiB: 200 }, { category: 'local-ssd' }],
          networkTags: ['gpu'],
          kubeletConfiguration: { maxPods: 64 },
        }),
      ),
    ).toBe('');
  });
});

describe('the implemented fields carry EC2’s, Karpenter’s and Compute Engine’s rules', () => {
  const ebs = (e: Record<string, unknown>) =>
    ec2({ blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: e }] });
  it.each([
    [
      ebs({ volumeSize: '100Gi', volumeType: 'io1' }),
      'spec.blockDeviceMappings[0].ebs.iops: is required for io1 volumes',
    ],
    [ebs({ volumeSize: '100Gi', volumeType: 'gp2', iops: 300 }), 'ebs.iops: gp2 volumes take no iops'],
    [ebs({ volumeSize: '100Gi', volumeType: 'gp3', iops: 20000 }), 'ebs.iops: must be 3000–16000 for gp3'],
    [
      ebs({ volumeSize: '100Gi', volumeType: 'io2', iops: 1000, throughput: 200 }),
      'ebs.throughput: is only for gp3 volumes',
    ],
    [
      ebs({ volumeSize: '100Gi', volumeType: 'gp3', throughput: 2000 }),
      'ebs.throughput: must be 125–1000 MiB/s',
    ],
    [ebs({ volumeSize: '20Ti', volumeType: 'gp3' }), 'gp3 volumes are 1–16384 GiB; 20Ti asks EC2 for 21991'],
    [ebs({ volumeSize: '100Gi', iops: 3000 }), 'ebs.volumeType: must be set when iops or throughput is'],
    [ebs({ volumeSize: '100Gi', kmsKeyID: 'k' }), 'ebs.encrypted: must be true when kmsKeyID is set'],
    [ebs({ volumeType: 'gp3' }), 'snapshotID or volumeSize must be defined'],
    [ebs({ volumeSize: '100GB' }), 'must be a size in Gi, G, Ti or T'],
    [
      ec2({
        blockDeviceMappings: [
          { deviceName: '/dev/xvda', rootVolume: true, ebs: { volumeSize: '20Gi' } },
          { deviceName: '/dev/xvdb', rootVolume: true, ebs: { volumeSize: '20Gi' } },
        ],
      }),
      'must have only one blockDeviceMappings with rootVolume',
    ],
    [
      ec2({ metadataOptions: { httpPutResponseHopLimit: 65 } }),
      'spec.metadataOptions.httpPutResponseHopLimit',
    ],
    [
      ec2({ kubelet: { systemReserved: { gpu: '1' } } }),
      "valid keys for systemReserved are ['cpu','memory','ephemeral-storage','pid']",
    ],
    [
      ec2({ kubelet: { kubeReserved: { cpu: '-1' } } }),
      'kubeReserved value cannot be a negative resource quantity',
    ],
    [ec2({ kubelet: { evictionHard: { 'memory.free': '1Gi' } } }), 'valid keys for evictionHard are'],
    [
      ec2({ kubelet: { evictionSoft: { 'memory.available': '1Gi' } } }),
      'evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod',
    ],
    [
      ec2({ kubelet: { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 60 } }),
      'imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent',
    ],
    [ec2({ kubelet: { clusterDNS: ['kube-dns'] } }), 'spec.kubelet.clusterDNS[0]: must be an IP address'],
    [ec2({ amiFamily: 'Bottlerocket', kubelet: { podsPerCore: 4 } }), 'is not supported by Bottlerocket'],
    [
      ec2({ tags: { 'karpenter.sh/nodepool': 'x' } }),
      'tag contains a restricted tag matching karpenter.sh/nodepool',
    ],
    [gce({ disks: [{ category: 'pd-fast', sizeGiB: 100 }] }), 'spec.disks[0].category: must be one of'],
    [gce({ disks: [{ category: 'local-ssd', sizeGiB: 100 }] }), 'a local SSD is 375 GiB'],
    [gce({ disks: [{ boot: true, sizeGiB: 5 }] }), 'size invalid: at least 10 GiB'],
    [gce({ metadata: { 'startup-script': 'echo' } }), 'startup-script is kraftsman'],
    [gce({ serviceAccount: 'nodes' }), 'spec.serviceAccount: must be a service account email'],
  ])('%#: refuses with %s', (obj, message) => {
    expect(refusal(obj)).toContain(message);
  });
});
