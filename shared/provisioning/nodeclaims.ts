// A claim the scheduler opened, as the karpenter.sh/v1 NodeClaim the provisioner creates: the NodePool's
// template labels and annotations, the narrowed requirements (instance types cheapest first, at most 60, as
// Karpenter's MaxInstanceTypes), taints and startup taints, summed requests, nodeClassRef, the owner NodePool
// and Karpenter's termination finalizer.
import {
  INSTANCE_TYPE,
  NODEPOOL,
  NODEPOOL_HASH,
  NODEPOOL_HASH_VERSION,
  TERMINATION_FINALIZER,
} from '../model/labels.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { NodePool } from '../model/nodepool.ts';
import { formatMilli } from '../model/quantity.ts';
import type { ResourceList } from '../model/resources.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import { describeClaim } from './simulate.ts';

/** Karpenter keeps the 60 cheapest instance types on a claim; the launch tries them in price order. */
export const MAX_INSTANCE_TYPES = 60;
/** Where a claim came from: lifetime metrics split provisioned claims from disruption replacements. */
export const ORIGIN_ANNOTATION = 'kraftsman.dev/origin';
export const ORIGINS = ['provisioning', 'disruption'] as const;
export type Origin = (typeof ORIGINS)[number];
/** The gang launch a claim belongs to (the PodGroup's members launch as one unit). */
export const GANG_ANNOTATION = 'kraftsman.dev/gang';

const BINARY = new Set(['memory', 'ephemeral-storage', 'hugepages-2Mi', 'hugepages-1Gi']);

export function toQuantities(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(list)) out[k] = formatMilli(Math.round(v), BINARY.has(k));
  return out;
}

export interface ClaimNaming {
  readonly name: string;
  readonly origin: Origin;
  /** The gang launch id, for claims hosting members of a PodGroup. */
  readonly gang?: string;
}

export function nodeClaimFor(c: NewClaim, pool: NodePool, naming: ClaimNaming): NodeClaim {
  const described = describeClaim(c, naming.name);
  const template = pool.spec.template;
  const requirements = described.requirements
    .filter((r) => r.key !== INSTANCE_TYPE)
    .map((r) => ({ key: r.key, operator: r.operator as 'In', values: [...r.values] }));
  requirements.push({
    key: INSTANCE_TYPE,
    operator: 'In',
    values: described.instanceTypes.slice(0, MAX_INSTANCE_TYPES),
  });
  const poolAnnotations = pool.metadata.annotations ?? {};
  const annotations: Record<string, string> = {
    ...(template.metadata?.annotations ?? {}),
    [ORIGIN_ANNOTATION]: naming.origin,
    ...(naming.gang ? { [GANG_ANNOTATION]: naming.gang } : {}),
  };
  for (const key of [NODEPOOL_HASH, NODEPOOL_HASH_VERSION])
    if (poolAnnotations[key]) annotations[key] = poolAnnotations[key];
  const spec = template.spec;
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: naming.name,
      labels: { ...c.template.labels, [NODEPOOL]: c.template.nodePool },
      annotations,
      // In the create body, as Karpenter's lifecycle controller adds it before any launch: an instance is
      // never made for a claim that a deletion could remove before the instance is terminated.
      finalizers: [TERMINATION_FINALIZER],
      ownerReferences: [
        {
          apiVersion: 'karpenter.sh/v1',
          kind: 'NodePool',
          name: pool.metadata.name,
          uid: pool.metadata.uid ?? '',
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeClassRef: { ...spec.nodeClassRef },
      requirements,
      resources: { requests: toQuantities(c.requests) },
      ...(c.template.taints.length ? { taints: c.template.taints.map((t) => ({ ...t })) } : {}),
      ...(c.template.startupTaints.length
        ? { startupTaints: c.template.startupTaints.map((t) => ({ ...t })) }
        : {}),
      ...(spec.expireAfter ? { expireAfter: spec.expireAfter } : {}),
      ...(spec.terminationGracePeriod ? { terminationGracePeriod: spec.terminationGracePeriod } : {}),
    },
  };
}

/** Karpenter's generateName: the NodePool name and five lowercase alphanumerics. */
export function claimName(nodePool: string, entropy: string): string {
  const suffix = entropy
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 5)
    .padEnd(5, '0');
  return `${nodePool.slice(0, 57)}-${suffix}`;
}
