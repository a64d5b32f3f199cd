// ProvisioningRequest (autoscaling.x-k8s.io/v1, Cluster Autoscaler's API that Kueue's provisioning admission check
// speaks) and the v1 PodTemplates its pod sets name (docs/mechanisms/provisioning-requests.md).
import { z } from 'zod';
import { annotationMap, dnsSubdomainName, labelMap, objectMeta } from './meta.ts';
import { podSchema } from './pod.ts';

/** The two classes of kubernetes/autoscaler's apis/provisioningrequest/autoscaling.x-k8s.io/v1/types.go. */
export const CHECK_CAPACITY = 'check-capacity.autoscaling.x-k8s.io';
export const ATOMIC_SCALE_UP = 'best-effort-atomic-scale-up.autoscaling.x-k8s.io';
/** The annotation a pod consuming a request carries (ProvisioningRequestPodAnnotationKey). */
export const CONSUME_REQUEST = 'autoscaling.x-k8s.io/consume-provisioning-request';
/** The annotation naming the request's class on those pods (ProvisioningClassPodAnnotationKey). */
export const REQUEST_CLASS = 'autoscaling.x-k8s.io/provisioning-class-name';

/** v1 PodTemplate: `template` is a pod's metadata and spec, validated as a pod's. */
export const podTemplateSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('PodTemplate'),
  metadata: objectMeta,
  template: z.looseObject({
    metadata: z
      .looseObject({ labels: labelMap.optional(), annotations: annotationMap.optional() })
      .optional(),
    spec: podSchema.shape.spec,
  }),
});
export type PodTemplate = z.infer<typeof podTemplateSchema>;

// The CRD's validation: provisioningClassName a DNS subdomain of at most 253 characters, 1 to 32 pod sets each
// of count >= 1 naming a PodTemplate, at most 100 parameters of at most 255 characters.
export const provisioningRequestSchema = z.looseObject({
  apiVersion: z.literal('autoscaling.x-k8s.io/v1'),
  kind: z.literal('ProvisioningRequest'),
  metadata: objectMeta,
  spec: z.looseObject({
    provisioningClassName: dnsSubdomainName,
    podSets: z
      .array(
        z.looseObject({
          podTemplateRef: z.looseObject({ name: dnsSubdomainName }),
          count: z.number().int().min(1).max(2147483647),
        }),
      )
      .min(1)
      .max(32),
    parameters: z
      .record(z.string(), z.string().max(255))
      .refine((p) => Object.keys(p).length <= 100, 'at most 100 parameters')
      .nullable()
      .optional(),
  }),
  status: z
    .looseObject({
      conditions: z
        .array(
          z.looseObject({
            type: z.string(),
            status: z.enum(['True', 'False', 'Unknown']),
            reason: z.string().optional(),
            message: z.string().optional(),
            lastTransitionTime: z.string().optional(),
          }),
        )
        .nullable()
        .optional(),
    })
    .optional(),
});
export type ProvisioningRequest = z.infer<typeof provisioningRequestSchema>;
