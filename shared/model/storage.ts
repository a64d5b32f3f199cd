// Storage objects that constrain scheduling: PVC, PV, StorageClass, CSINode (attach limits).
import { z } from 'zod';
import { labelNamedMeta, nodeSelectorTerm, objectMeta, resourceList } from './meta.ts';

export const pvcSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('PersistentVolumeClaim'),
  metadata: objectMeta,
  spec: z
    .looseObject({
      storageClassName: z.string().nullable().optional(),
      volumeName: z.string().optional(),
      resources: z
        .looseObject({ requests: resourceList.optional(), limits: resourceList.optional() })
        .optional(),
    })
    .optional(),
  status: z.looseObject({ phase: z.string().optional() }).optional(),
});
export type PersistentVolumeClaim = z.infer<typeof pvcSchema>;

export const pvSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('PersistentVolume'),
  metadata: objectMeta,
  spec: z
    .looseObject({
      storageClassName: z.string().optional(),
      csi: z.looseObject({ driver: z.string() }).optional(),
      // node-local volumes: their hostname term names a node that will not come back (volumetopology.go)
      local: z.looseObject({}).optional(),
      hostPath: z.looseObject({}).optional(),
      nodeAffinity: z
        .looseObject({ required: z.looseObject({ nodeSelectorTerms: z.array(nodeSelectorTerm) }).optional() })
        .optional(),
    })
    .optional(),
});
export type PersistentVolume = z.infer<typeof pvSchema>;

export const storageClassSchema = z.looseObject({
  apiVersion: z.literal('storage.k8s.io/v1'),
  kind: z.literal('StorageClass'),
  metadata: objectMeta,
  provisioner: z.string(),
  volumeBindingMode: z.enum(['Immediate', 'WaitForFirstConsumer']).optional(),
  allowedTopologies: z
    .array(
      z.looseObject({
        matchLabelExpressions: z
          .array(z.looseObject({ key: z.string(), values: z.array(z.string()) }))
          .optional(),
      }),
    )
    .optional(),
});
export type StorageClass = z.infer<typeof storageClassSchema>;

export const csiNodeSchema = z.looseObject({
  apiVersion: z.literal('storage.k8s.io/v1'),
  kind: z.literal('CSINode'),
  metadata: objectMeta,
  spec: z.looseObject({
    drivers: z
      .array(
        z.looseObject({
          name: z.string(),
          nodeID: z.string().optional(),
          allocatable: z.looseObject({ count: z.number().int().min(0).optional() }).optional(),
        }),
      )
      .nullable()
      .optional(),
  }),
});
export type CSINode = z.infer<typeof csiNodeSchema>;

export const namespaceSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Namespace'),
  metadata: labelNamedMeta,
});
export type Namespace = z.infer<typeof namespaceSchema>;
