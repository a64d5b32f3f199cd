// Node (v1): labels, taints, capacity and readiness.
import { z } from 'zod';
import { objectMeta, resourceList, taint } from './meta.ts';

export const nodeSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Node'),
  metadata: objectMeta,
  spec: z
    .looseObject({
      providerID: z.string().optional(),
      taints: z.array(taint).optional(),
      unschedulable: z.boolean().optional(),
    })
    .optional(),
  status: z
    .looseObject({
      capacity: resourceList.optional(),
      allocatable: resourceList.optional(),
      conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional(),
    })
    .optional(),
});
export type Node = z.infer<typeof nodeSchema>;

/** Ready unless the Ready condition says otherwise (a snapshot may omit conditions). */
export function nodeReady(node: Node): boolean {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  return ready === undefined || ready.status === 'True';
}
