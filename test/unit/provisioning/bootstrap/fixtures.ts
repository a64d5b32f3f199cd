// A NodeClaim and node classes of each bootstrap family, for the rendered-user-data tests.
import type { NodeClaim } from '../../../../shared/model/nodeclaim.ts';
import {
  ec2NodeClassSchema,
  gceNodeClassSchema,
  type EC2NodeClass,
  type GCENodeClass,
} from '../../../../shared/model/nodeclass.ts';

export const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBkraftsman\n-----END CERTIFICATE-----\n';
export const CA_BUNDLE = Buffer.from(CA_PEM).toString('base64');
export const CA_HASH = `sha256:${'ab'.repeat(32)}`;
export const TOKEN = { id: 'abcdef', secret: '0123456789abcdef' } as const;

export const JOINABLE = {
  apiServerEndpoint: 'https://api.prod.example.internal:6443',
  caBundle: CA_BUNDLE,
  caCertHash: CA_HASH,
  serviceCIDR: '10.100.0.0/16',
};

/** A claim of NodePool gpu: one restricted label (applied after registration), a taint, a startup taint. */
export function claim(): NodeClaim {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: 'gpu-abc12',
      labels: { 'karpenter.sh/nodepool': 'gpu', team: 'ml', 'node-role.kubernetes.io/gpu': 'true' },
    },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' },
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand', 'spot'] },
      ],
      taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }],
      startupTaints: [{ key: 'example.com/warming', effect: 'NoSchedule' }],
    },
  };
}

export const ec2Class = (spec: Record<string, unknown>): EC2NodeClass =>
  ec2NodeClassSchema.parse({
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'gpu' },
    spec: { kubelet: { maxPods: 110 }, bootstrap: JOINABLE, ...spec },
  });

export const gceClass = (spec: Record<string, unknown>): GCENodeClass =>
  gceNodeClassSchema.parse({
    apiVersion: 'karpenter.k8s.gcp/v1alpha1',
    kind: 'GCENodeClass',
    metadata: { name: 'gpu' },
    spec: { bootstrap: JOINABLE, ...spec },
  });

/** What kraftsman lets the kubelet set itself (NodeRestriction-safe), sorted, as --node-labels carries it. */
export const KUBELET_LABELS = 'karpenter.sh/nodepool=gpu,node.kubernetes.io/instance-type=g5.xlarge,team=ml';
export const TAINTS =
  'nvidia.com/gpu=true:NoSchedule,example.com/warming:NoSchedule,karpenter.sh/unregistered:NoExecute';
