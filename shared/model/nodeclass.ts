// Node classes: compatible subsets of karpenter.k8s.aws/v1 EC2NodeClass and the GCP provider's
// karpenter.k8s.gcp/v1alpha1 GCENodeClass, plus the bootstrap data a self-managed cluster needs.
import { z } from 'zod';
import { objectMeta } from './meta.ts';
import type { Cloud } from './labels.ts';

const selectorTerm = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  alias: z.string().optional(),
  /** amiSelectorTerms: the image owner (an account id, `self` or `amazon`), as Karpenter's. */
  owner: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
});

const kubelet = z
  .looseObject({
    maxPods: z.number().int().min(0).optional(),
    podsPerCore: z.number().int().min(0).optional(),
    systemReserved: z.record(z.string(), z.string()).optional(),
    kubeReserved: z.record(z.string(), z.string()).optional(),
    evictionHard: z.record(z.string(), z.string()).optional(),
  })
  .optional();

/**
 * How a node joins the cluster, per family (docs/mechanisms/bootstrap.md): the API endpoint, the cluster CA (PEM,
 * base64: AL2023, Bottlerocket), its hash (Kubeadm's --discovery-token-ca-cert-hash), the service CIDR (nodeadm's
 * spec.cluster.cidr), a bootstrap-token Secret in kube-system (else the launcher issues one per launch), a script.
 */
const bootstrap = z
  .looseObject({
    apiServerEndpoint: z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional(),
    caBundle: z.base64({ error: 'must be the base64 of the cluster CA certificate (PEM)' }).optional(),
    caCertHash: z
      .string()
      .regex(
        /^sha256:[0-9a-f]{64}$/,
        'must be sha256:<64 hex digits> (kubeadm token create --print-join-command)',
      )
      .optional(),
    serviceCIDR: z.cidrv4({ error: 'must be an IPv4 CIDR such as 10.100.0.0/16' }).optional(),
    joinTokenSecretRef: z
      .looseObject({
        // Its shape (bootstrap-token-<id>, type bootstrap.kubernetes.io/token) is checked when a launch reads it.
        name: z.string(),
        namespace: z
          .literal('kube-system', {
            error: 'bootstrap tokens live in kube-system (the authenticator reads no other)',
          })
          .optional(),
      })
      .optional(),
    script: z.string().optional(),
  })
  .optional();

/**
 * Karpenter's amiFamily vocabulary as far as kraftsman renders it, plus Kubeadm (a self-managed cluster's node
 * joining with `kubeadm join`). AL2, Windows2019 and Windows2022 are refused, not ignored.
 */
export const AMI_FAMILIES = ['AL2023', 'Bottlerocket', 'Custom', 'Kubeadm'] as const;
export type AmiFamily = (typeof AMI_FAMILIES)[number];
const amiFamily = z.enum(AMI_FAMILIES, {
  error: (i) =>
    `unsupported amiFamily ${JSON.stringify(i.input)}: kraftsman renders ${AMI_FAMILIES.join(', ')} (AL2 and Windows are not implemented)`,
});

export const ec2NodeClassSchema = z.looseObject({
  apiVersion: z.literal('karpenter.k8s.aws/v1'),
  kind: z.literal('EC2NodeClass'),
  metadata: objectMeta,
  spec: z
    .looseObject({
      amiFamily: amiFamily.optional(),
      amiSelectorTerms: z.array(selectorTerm).optional(),
      subnetSelectorTerms: z.array(selectorTerm).optional(),
      securityGroupSelectorTerms: z.array(selectorTerm).optional(),
      capacityReservationSelectorTerms: z.array(selectorTerm).optional(),
      role: z.string().optional(),
      instanceProfile: z.string().optional(),
      userData: z.string().optional(),
      tags: z.record(z.string(), z.string()).optional(),
      kubelet,
      bootstrap,
    })
    .default({}),
});
export type EC2NodeClass = z.infer<typeof ec2NodeClassSchema>;

export const gceNodeClassSchema = z.looseObject({
  apiVersion: z.literal('karpenter.k8s.gcp/v1alpha1'),
  kind: z.literal('GCENodeClass'),
  metadata: objectMeta,
  spec: z
    .looseObject({
      project: z.string().optional(),
      imageSelectorTerms: z
        .array(z.looseObject({ alias: z.string().optional(), id: z.string().optional() }))
        .optional(),
      serviceAccount: z.string().optional(),
      subnetwork: z.string().optional(),
      networkTags: z.array(z.string()).optional(),
      labels: z.record(z.string(), z.string()).optional(),
      metadata: z.record(z.string(), z.string()).optional(),
      disks: z
        .array(z.looseObject({ sizeGiB: z.number().int().min(1).optional(), boot: z.boolean().optional() }))
        .optional(),
      kubeletConfiguration: kubelet,
      bootstrap,
    })
    .default({}),
});
export type GCENodeClass = z.infer<typeof gceNodeClassSchema>;

export type NodeClass = EC2NodeClass | GCENodeClass;

export const NODE_CLASS_GROUPS: Readonly<Record<string, { cloud: Cloud; kind: string; apiVersion: string }>> =
  {
    'karpenter.k8s.aws': { cloud: 'aws', kind: 'EC2NodeClass', apiVersion: 'karpenter.k8s.aws/v1' },
    'karpenter.k8s.gcp': { cloud: 'gcp', kind: 'GCENodeClass', apiVersion: 'karpenter.k8s.gcp/v1alpha1' },
  };

export function cloudOfNodeClassRef(ref: { group: string; kind: string }): Cloud | undefined {
  const entry = NODE_CLASS_GROUPS[ref.group];
  return entry && entry.kind === ref.kind ? entry.cloud : undefined;
}
