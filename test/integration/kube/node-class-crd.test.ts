// The node class CRDs kraftsman ships keep every field kraftsman implements: a node class written with all of them
// reads back whole through the API server (which prunes what a CRD does not declare) and parses with the model, so no
// field the model honours is dropped between kubectl apply and a launch.
import { CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeConfigFor } from '../../../shared/adapters/kube/client.ts';
import { ec2NodeClassSchema, gceNodeClassSchema } from '../../../shared/model/nodeclass.ts';
import { startHarness, type Harness } from '../../contracts/cluster/harness.ts';

const KUBELET = {
  maxPods: 58,
  podsPerCore: 8,
  systemReserved: { cpu: '500m', memory: '2Gi' },
  kubeReserved: { cpu: '250m' },
  evictionHard: { 'memory.available': '5%' },
  evictionSoft: { 'memory.available': '1Gi' },
  evictionSoftGracePeriod: { 'memory.available': '1m30s' },
  evictionMaxPodGracePeriod: 60,
  imageGCHighThresholdPercent: 85,
  imageGCLowThresholdPercent: 70,
  cpuCFSQuota: false,
  clusterDNS: ['10.100.0.10'],
};

const EC2_SPEC = {
  amiFamily: 'AL2023',
  amiSelectorTerms: [{ alias: 'al2023@latest' }],
  subnetSelectorTerms: [{ tags: { team: 'ml' } }],
  securityGroupSelectorTerms: [{ id: 'sg-1' }],
  role: 'NodeRole',
  tags: { team: 'ml' },
  associatePublicIPAddress: true,
  detailedMonitoring: true,
  blockDeviceMappings: [
    {
      deviceName: '/dev/xvda',
      rootVolume: true,
      ebs: {
        volumeSize: '500Gi',
        volumeType: 'gp3',
        iops: 6000,
        throughput: 500,
        encrypted: true,
        kmsKeyID: 'arn:aws:kms:us-east-1:1:key/k',
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
  kubelet: KUBELET,
};

const GCE_SPEC = {
  imageSelectorTerms: [{ alias: 'cos' }],
  serviceAccount: 'nodes@p.iam.gserviceaccount.com',
  serviceAccountScopes: ['https://www.googleapis.com/auth/cloud-platform'],
  subnetwork: 'regions/us-central1/subnetworks/nodes',
  networkTags: ['gpu'],
  labels: { team: 'ml' },
  metadata: { 'enable-oslogin': 'TRUE' },
  disks: [{ boot: true, category: 'pd-ssd', sizeGiB: 200 }, { category: 'local-ssd' }],
  kubeletConfiguration: KUBELET,
};

let h: Harness;
let custom: CustomObjectsApi;
beforeAll(async () => {
  h = await startHarness();
  custom = kubeConfigFor(h.url, 't').makeApiClient(CustomObjectsApi);
});
afterAll(() => h.close());

describe('the shipped node class CRDs keep every field kraftsman implements', () => {
  it.each([
    ['EC2NodeClass', 'karpenter.k8s.aws', 'v1', 'ec2nodeclasses', EC2_SPEC, ec2NodeClassSchema],
    ['GCENodeClass', 'karpenter.k8s.gcp', 'v1alpha1', 'gcenodeclasses', GCE_SPEC, gceNodeClassSchema],
  ] as const)('%s', async (kind, group, version, plural, spec, schema) => {
    const body = { apiVersion: `${group}/${version}`, kind, metadata: { name: 'full' }, spec };
    await custom.createClusterCustomObject({ group, version, plural, body });
    const read = (await custom.getClusterCustomObject({ group, version, plural, name: 'full' })) as {
      spec: unknown;
    };
    expect(read.spec).toEqual(spec);
    expect(schema.safeParse(read).success).toBe(true);
  });
});
