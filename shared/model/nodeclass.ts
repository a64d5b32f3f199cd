// Node classes: compatible subsets of karpenter.k8s.aws/v1 EC2NodeClass and the GCP provider's
// karpenter.k8s.gcp/v1alpha1 GCENodeClass, plus the bootstrap data a self-managed cluster needs.
import { z } from 'zod';
import { objectMeta } from './meta.ts';
import type { Cloud } from './labels.ts';
import { blockDeviceMappingsSchema, metadataOptionsSchema } from './nodeclass-ec2.ts';
import { checkedRecord, implementedObject, kubeletSchema } from './nodeclass-fields.ts';
import { gceDisksSchema, scopesSchema } from './nodeclass-gce.ts';

const selectorTerm = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  alias: z.string().optional(),
  /** amiSelectorTerms: the image owner (an account id, `self` or `amazon`), as Karpenter's. */
  owner: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
});

const kubelet = kubeletSchema.optional();

/** EC2 tag rules (CreateTags): keys 1–128 characters, values up to 256, not under the reserved `aws:` prefix. */
const RESTRICTED_TAGS = [
  'karpenter.sh/nodepool',
  'karpenter.sh/nodeclaim',
  'karpenter.k8s.aws/ec2nodeclass',
  'eks:eks-cluster-name',
];
const ec2Tags = checkedRecord(z.string().max(256), (k) => {
  if (k.length < 1 || k.length > 128) return 'tag keys are 1 to 128 characters';
  if (k.toLowerCase().startsWith('aws:')) return 'tag keys starting with aws: are reserved by AWS';
  // Karpenter's CEL rules: these tags are kraftsman's own on every instance (launch.ts baseTags).
  if (k.startsWith('kubernetes.io/cluster') || RESTRICTED_TAGS.includes(k))
    return `tag contains a restricted tag matching ${k}`;
  return undefined;
}).refine((t) => Object.keys(t).length <= 50, 'at most 50 tags');

/** Metadata keeps clear of kraftsman's own `kraftsman-*` items (instance-body.ts writes those; Compute Engine refuses a key twice). */
const ownKey = (field: string) => (k: string) =>
  k.startsWith('kraftsman-') ? `${field} keys starting with kraftsman- are kraftsman's own` : undefined;

/**
 * How a node joins the cluster, per family (docs/mechanisms/bootstrap.md): the API endpoint, the cluster CA (PEM,
 * base64: AL2023, Bottlerocket), its hash (Kubeadm's --discovery-token-ca-cert-hash), the service CIDR (nodeadm's
 * spec.cluster.cidr), a bootstrap-token Secret in kube-system (else the launcher issues one per launch), a script.
 */
const bootstrap = implementedObject({
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
  joinTokenSecretRef: implementedObject({
    // Its shape (bootstrap-token-<id>, type bootstrap.kubernetes.io/token) is checked when a launch reads it.
    name: z.string(),
    namespace: z
      .literal('kube-system', {
        error: 'bootstrap tokens live in kube-system (the authenticator reads no other)',
      })
      .optional(),
  }).optional(),
  script: z.string().optional(),
}).optional();

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

/**
 * Karpenter v1.14's `placementGroupSelector`: the one EC2 placement group (created beforehand) every instance of the
 * node class launches into, by `name` or by `id` (exactly one). kraftsman passes it on each CreateFleet override
 * (`Placement.GroupName` / `Placement.GroupId`) and places a gang of its claims in one zone (docs/node-classes.md).
 */
const placementGroupSelectorSchema = implementedObject({
  name: z.string().min(1).max(255, 'a placement group name has at most 255 characters').optional(),
  id: z
    .string()
    .regex(/^pg-[0-9a-f]{8,17}$/, 'must be a placement group id (pg-…)')
    .optional(),
}).superRefine((t, ctx) => {
  if ((t.name === undefined) === (t.id === undefined))
    ctx.addIssue({ code: 'custom', message: 'exactly one of name or id must be set' });
});

export const ec2NodeClassSchema = z.looseObject({
  apiVersion: z.literal('karpenter.k8s.aws/v1'),
  kind: z.literal('EC2NodeClass'),
  metadata: objectMeta,
  spec: implementedObject({
    amiFamily: amiFamily.optional(),
    amiSelectorTerms: z.array(selectorTerm).optional(),
    subnetSelectorTerms: z.array(selectorTerm).optional(),
    securityGroupSelectorTerms: z.array(selectorTerm).optional(),
    capacityReservationSelectorTerms: z.array(selectorTerm).optional(),
    placementGroupSelector: placementGroupSelectorSchema.optional(),
    role: z.string().optional(),
    instanceProfile: z.string().optional(),
    userData: z.string().optional(),
    tags: ec2Tags.optional(),
    blockDeviceMappings: blockDeviceMappingsSchema.optional(),
    metadataOptions: metadataOptionsSchema.optional(),
    associatePublicIPAddress: z.boolean().optional(),
    detailedMonitoring: z.boolean().optional(),
    kubelet,
    bootstrap,
  })
    .superRefine((spec, ctx) => {
      // Bottlerocket has no pods-per-core setting (Karpenter's Bottlerocket FeatureFlags: PodsPerCoreEnabled false).
      if (spec.amiFamily === 'Bottlerocket' && spec.kubelet?.podsPerCore !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['kubelet', 'podsPerCore'],
          message: 'is not supported by Bottlerocket (its settings have no pods-per-core)',
        });
    })
    .default({}),
});
export type EC2NodeClass = z.infer<typeof ec2NodeClassSchema>;

export const gceNodeClassSchema = z.looseObject({
  apiVersion: z.literal('karpenter.k8s.gcp/v1alpha1'),
  kind: z.literal('GCENodeClass'),
  metadata: objectMeta,
  spec: implementedObject({
    project: z.string().optional(),
    imageSelectorTerms: z
      .array(z.looseObject({ alias: z.string().optional(), id: z.string().optional() }))
      .optional(),
    serviceAccount: z
      .string()
      .regex(
        /^[^@]+@(developer\.gserviceaccount\.com|[^@]+\.iam\.gserviceaccount\.com)$/,
        'must be a service account email (…@PROJECT.iam.gserviceaccount.com)',
      )
      .optional(),
    /** OAuth scopes of the service account (kraftsman's field; the GCP provider always grants cloud-platform). */
    serviceAccountScopes: scopesSchema.optional(),
    subnetwork: z.string().optional(),
    networkTags: z
      .array(z.string().regex(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a network tag (RFC 1035)'))
      .max(64)
      .optional(),
    // A label under one of kraftsman's own keys (kraftsman-cluster, …) is overwritten by kraftsman's value.
    labels: z.record(z.string(), z.string()).optional(),
    metadata: checkedRecord(z.string(), (k) =>
      k === 'startup-script'
        ? "startup-script is kraftsman's bootstrap: put a script in spec.bootstrap.script"
        : ownKey('metadata')(k),
    ).optional(),
    disks: gceDisksSchema.optional(),
    /**
     * kraftsman's field: the name of a compact placement policy (a resource policy with `groupPlacementPolicy`
     * collocation COLLOCATED, created beforehand in each region the node class launches in), attached to every
     * instance through `resourcePolicies`; a gang of its claims is placed in one zone (docs/node-classes.md).
     */
    compactPlacementPolicy: z
      .string()
      .regex(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a resource policy name (RFC 1035)')
      .optional(),
    kubeletConfiguration: kubelet,
    bootstrap,
  }).default({}),
});
export type GCENodeClass = z.infer<typeof gceNodeClassSchema>;

export type NodeClass = EC2NodeClass | GCENodeClass;

/** A node class that launches into one placement group / compact placement: its gangs go in one zone. */
export function placesGangsInOneZone(nc: NodeClass | undefined): boolean {
  if (!nc) return false;
  return nc.kind === 'EC2NodeClass'
    ? nc.spec.placementGroupSelector !== undefined
    : nc.spec.compactPlacementPolicy !== undefined;
}

export const NODE_CLASS_GROUPS: Readonly<Record<string, { cloud: Cloud; kind: string; apiVersion: string }>> =
  {
    'karpenter.k8s.aws': { cloud: 'aws', kind: 'EC2NodeClass', apiVersion: 'karpenter.k8s.aws/v1' },
    'karpenter.k8s.gcp': { cloud: 'gcp', kind: 'GCENodeClass', apiVersion: 'karpenter.k8s.gcp/v1alpha1' },
  };

export function cloudOfNodeClassRef(ref: { group: string; kind: string }): Cloud | undefined {
  const entry = NODE_CLASS_GROUPS[ref.group];
  return entry && entry.kind === ref.kind ? entry.cloud : undefined;
}
