// The Kubernetes Workload API's gangs (KEP-4671, docs/mechanisms/gangs.md#the-workload-api): `scheduling.k8s.io`
// Workload at v1alpha2 (Kubernetes 1.36) and v1alpha1 (1.35), and the v1alpha2 PodGroup a pod names.
import { z } from 'zod';
import { checkGangAnnotations } from './gang-annotations.ts';
import { dnsLabelName, dnsSubdomainName, objectMeta } from './meta.ts';

/** The API group's limit on pod groups (templates) per Workload: WorkloadMaxPodGroup(Template)s = 8. */
const MAX_GROUPS = 8;

/**
 * PodGroupSchedulingPolicy (v1alpha2) / PodGroupPolicy (v1alpha1): a union, exactly one of `basic` (each pod on its
 * own) or `gang` (all or nothing: `minCount` of them at once). minCount is at least 1 at v1alpha2 and at least 0
 * at v1alpha1 (`+k8s:minimum` in each version's types.go).
 */
const policy = (minCount: number) =>
  z
    .looseObject({
      basic: z.looseObject({}).optional(),
      gang: z.looseObject({ minCount: z.number().int().min(minCount) }).optional(),
    })
    .superRefine((p, ctx) => {
      const set = [p.basic, p.gang].filter((x) => x !== undefined).length;
      if (set !== 1)
        ctx.addIssue({
          code: 'custom',
          message: `exactly one of basic or gang must be set, found ${set === 0 ? 'neither' : 'both'}`,
        });
    });
export type GroupPolicy = z.infer<ReturnType<typeof policy>>;

/** A list keyed by `name` (`+listType=map`): names are unique. */
const uniqueNames = <T extends { name: string }>(list: readonly T[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  list.forEach((g, i) => {
    if (seen.has(g.name))
      ctx.addIssue({
        code: 'custom',
        path: [i, 'name'],
        message: `duplicate name ${JSON.stringify(g.name)}`,
      });
    seen.add(g.name);
  });
};

const controllerRef = z.looseObject({ apiGroup: z.string().optional(), kind: z.string(), name: z.string() });

/** Kubernetes 1.35: `spec.podGroups[]` with `policy`; pods name it with `spec.workloadRef {name, podGroup}`. */
export const workloadV1alpha1Schema = z
  .looseObject({
    apiVersion: z.literal('scheduling.k8s.io/v1alpha1'),
    kind: z.literal('Workload'),
    metadata: objectMeta,
    spec: z.looseObject({
      controllerRef: controllerRef.optional(),
      podGroups: z
        .array(z.looseObject({ name: dnsLabelName, policy: policy(0) }))
        .min(1)
        .max(MAX_GROUPS)
        .superRefine(uniqueNames),
    }),
  })
  .superRefine(checkGangAnnotations);

/**
 * Kubernetes 1.36: `spec.podGroupTemplates[]` with `schedulingPolicy`. Controllers stamp PodGroups out of the
 * templates and pods name a PodGroup; a pod that still names the Workload (`spec.workloadRef`) is read against
 * its templates too.
 */
export const workloadV1alpha2Schema = z
  .looseObject({
    apiVersion: z.literal('scheduling.k8s.io/v1alpha2'),
    kind: z.literal('Workload'),
    metadata: objectMeta,
    spec: z.looseObject({
      controllerRef: controllerRef.optional(),
      podGroupTemplates: z
        .array(z.looseObject({ name: dnsLabelName, schedulingPolicy: policy(1) }))
        .min(1)
        .max(MAX_GROUPS)
        .superRefine(uniqueNames),
    }),
  })
  .superRefine(checkGangAnnotations);

export type Workload = z.infer<typeof workloadV1alpha1Schema> | z.infer<typeof workloadV1alpha2Schema>;

/** Kubernetes 1.36's runtime PodGroup (`scheduling.k8s.io/v1alpha2`): pods name it with `spec.schedulingGroup`. */
export const workloadPodGroupSchema = z
  .looseObject({
    apiVersion: z.literal('scheduling.k8s.io/v1alpha2'),
    kind: z.literal('PodGroup'),
    metadata: objectMeta,
    spec: z.looseObject({
      podGroupTemplateRef: z.looseObject({}).nullable().optional(),
      schedulingPolicy: policy(1),
    }),
  })
  .superRefine(checkGangAnnotations);
export type WorkloadPodGroup = z.infer<typeof workloadPodGroupSchema>;

/** Pod `spec.workloadRef` (1.35): the Workload of the pod's namespace and one of its pod groups. */
export const workloadRef = z.looseObject({
  name: dnsSubdomainName,
  podGroup: dnsLabelName,
  // replicas of one pod group are gangs of their own; the key is the last part of the gang's name, so any text is safe
  podGroupReplicaKey: z.string().min(1).max(63).optional(),
});

/** Pod `spec.schedulingGroup` (1.36): the PodGroup of the pod's namespace. */
export const schedulingGroup = z.looseObject({ podGroupName: dnsSubdomainName });

/** The groups a Workload declares, with their policies, whichever version it is at. */
export function workloadGroups(w: Workload): { name: string; policy: GroupPolicy }[] {
  if (w.apiVersion === 'scheduling.k8s.io/v1alpha1')
    return w.spec.podGroups.map((g) => ({ name: g.name, policy: g.policy }));
  return w.spec.podGroupTemplates.map((g) => ({ name: g.name, policy: g.schedulingPolicy }));
}
