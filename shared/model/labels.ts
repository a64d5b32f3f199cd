// Well-known label, annotation and taint keys (Karpenter v1 + kubernetes + kraftsman's own).
export const NODEPOOL = 'karpenter.sh/nodepool';
export const CAPACITY_TYPE = 'karpenter.sh/capacity-type';
export const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';
export const ZONE = 'topology.kubernetes.io/zone';
export const REGION = 'topology.kubernetes.io/region';
export const HOSTNAME = 'kubernetes.io/hostname';
export const ARCH = 'kubernetes.io/arch';
export const OS = 'kubernetes.io/os';
export const INITIALIZED = 'karpenter.sh/initialized';
export const REGISTERED = 'karpenter.sh/registered';
export const CLOUD = 'kraftsman.dev/cloud';
export const GPU_MODEL = 'kraftsman.dev/gpu-model';
export const AWS_GPU_NAME = 'karpenter.k8s.aws/instance-gpu-name';
export const GCP_ACCELERATOR = 'cloud.google.com/gke-accelerator';

export const DO_NOT_DISRUPT = 'karpenter.sh/do-not-disrupt';
export const NODEPOOL_HASH = 'karpenter.sh/nodepool-hash';
export const NODEPOOL_HASH_VERSION = 'karpenter.sh/nodepool-hash-version';
export const NODECLASS_HASH = 'karpenter.k8s.aws/ec2nodeclass-hash';
export const TERMINATION_CAUSE = 'kraftsman.dev/termination-cause';
export const VOLCANO_GROUP = 'scheduling.k8s.io/group-name';
export const VOLCANO_GROUP_ALT = 'scheduling.volcano.sh/group-name';
/**
 * On a gang's PodGroup: `whole` (the default) keeps a running gang whole through voluntary disruption; `per-node`
 * lets disruption take its nodes one at a time, for elastic jobs that survive losing members (docs/mechanisms/gangs.md).
 */
export const GANG_DISRUPTION = 'kraftsman.dev/gang-disruption';
export const GANG_DISRUPTION_VALUES = ['whole', 'per-node'] as const;
/**
 * On a gang's PodGroup or Workload: `zone` places every member in one zone (the cheapest zone that holds the whole
 * gang); `any` (the default) lets members spread (docs/mechanisms/gangs.md#placement).
 */
export const GANG_PLACEMENT = 'kraftsman.dev/gang-placement';
export const GANG_PLACEMENT_VALUES = ['any', 'zone'] as const;

/**
 * Karpenter's termination finalizer: every NodeClaim kraftsman creates carries it, and its Node gets it at
 * registration, so a deletion by anyone drains before the instance goes (docs/functions/lifecycle.md).
 */
export const TERMINATION_FINALIZER = 'karpenter.sh/termination';

export const DISRUPTED_TAINT_KEY = 'karpenter.sh/disrupted';
export const UNREGISTERED_TAINT_KEY = 'karpenter.sh/unregistered';

/** Values of the TERMINATION_CAUSE annotation a cloud interruption stamps on a NodeClaim. */
export const TERMINATION_CAUSES = [
  'spot-interruption',
  'preempted',
  'instance-stopped',
  'instance-terminated',
  'scheduled-maintenance',
  'rebalance-recommendation',
] as const;
export type TerminationCause = (typeof TERMINATION_CAUSES)[number];

export const CAPACITY_TYPES = ['on-demand', 'spot', 'reserved'] as const;
export type CapacityType = (typeof CAPACITY_TYPES)[number];
/** Narrows a label value (a node's karpenter.sh/capacity-type) to the union; anything else is undefined. */
export const capacityTypeOf = (value: string | undefined): CapacityType | undefined =>
  CAPACITY_TYPES.find((ct) => ct === value);
export const CLOUDS = ['aws', 'gcp'] as const;
export type Cloud = (typeof CLOUDS)[number];

/** Labels Karpenter treats as well known: a pod may select on them without the NodePool naming them. */
export const WELL_KNOWN_LABELS: ReadonlySet<string> = new Set([
  NODEPOOL,
  CAPACITY_TYPE,
  INSTANCE_TYPE,
  ZONE,
  REGION,
  HOSTNAME,
  ARCH,
  OS,
  CLOUD,
  GPU_MODEL,
  AWS_GPU_NAME,
  GCP_ACCELERATOR,
  'node.kubernetes.io/windows-build',
  'karpenter.k8s.aws/instance-category',
  'karpenter.k8s.aws/instance-family',
  'karpenter.k8s.aws/instance-generation',
  'karpenter.k8s.aws/instance-size',
  'karpenter.k8s.aws/instance-cpu',
  'karpenter.k8s.aws/instance-memory',
  'karpenter.k8s.aws/instance-gpu-count',
  'karpenter.k8s.aws/instance-gpu-manufacturer',
  'karpenter.k8s.aws/instance-gpu-memory',
  'cloud.google.com/machine-family',
  'kraftsman.dev/gpu-count',
]);

/** Label domains Karpenter restricts on NodePools (kubernetes.io, k8s.io, karpenter.sh) unless well known. */
export const RESTRICTED_LABEL_DOMAINS = ['kubernetes.io', 'k8s.io', 'karpenter.sh'] as const;
