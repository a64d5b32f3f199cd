// karpenter.sh/v1 NodeClaim: a request for one node, and its lifecycle status.
import { z } from 'zod';
import { isCrdDuration, isCrdNillableDuration } from './duration.ts';
import { objectMeta, resourceList, timestamp } from './meta.ts';
import { crdTaint, karpenterRequirement, nodeClassRef } from './nodepool.ts';

export const nodeClaimSchema = z.looseObject({
  apiVersion: z.literal('karpenter.sh/v1'),
  kind: z.literal('NodeClaim'),
  metadata: objectMeta,
  spec: z.looseObject({
    nodeClassRef,
    requirements: z.array(karpenterRequirement(false)).max(100).default([]),
    resources: z.looseObject({ requests: resourceList.optional() }).optional(),
    taints: z.array(crdTaint).optional(),
    startupTaints: z.array(crdTaint).optional(),
    expireAfter: z
      .string()
      .refine(
        isCrdNillableDuration,
        'must be whole seconds, minutes or hours such as 720h (at most 2562047h), or "Never"',
      )
      .optional(),
    terminationGracePeriod: z
      .string()
      .refine(isCrdDuration, 'must be whole seconds, minutes or hours such as 48h (at most 2562047h)')
      .optional(),
  }),
  status: z
    .looseObject({
      nodeName: z.string().optional(),
      providerID: z.string().optional(),
      imageID: z.string().optional(),
      capacity: resourceList.optional(),
      allocatable: resourceList.optional(),
      lastPodEventTime: timestamp.optional(),
      conditions: z
        .array(
          z.looseObject({
            type: z.string(),
            status: z.string(),
            reason: z.string().optional(),
            lastTransitionTime: z.string().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});
export type NodeClaim = z.infer<typeof nodeClaimSchema>;

export function claimCondition(claim: NodeClaim, type: string): boolean | undefined {
  const c = claim.status?.conditions?.find((x) => x.type === type);
  return c === undefined ? undefined : c.status === 'True';
}
