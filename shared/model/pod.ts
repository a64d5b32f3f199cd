// Pod (v1): the fields scheduling and disruption read.
import { z } from 'zod';
import {
  dnsLabelName,
  labelMap,
  labelSelector,
  nodeSelectorTerm,
  objectMeta,
  qualifiedName,
  resourceList,
  timestamp,
  toleration,
  nodeSelectorRequirement,
} from './meta.ts';
import { containerResourceIssues } from './resource-rules.ts';
import { schedulingGroup, workloadRef } from './workload.ts';

const containerPort = z.looseObject({
  containerPort: z.number().int().min(1).max(65535).optional(),
  hostPort: z.number().int().min(0).max(65535).optional(),
  hostIP: z.string().optional(),
  protocol: z.enum(['TCP', 'UDP', 'SCTP']).optional(),
});

const container = z
  .looseObject({
    name: z.string().optional(),
    resources: z
      .looseObject({ requests: resourceList.optional(), limits: resourceList.optional() })
      .optional(),
    ports: z.array(containerPort).optional(),
    restartPolicy: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    for (const issue of containerResourceIssues(c.resources?.requests, c.resources?.limits))
      ctx.addIssue({ code: 'custom', path: ['resources', ...issue.path], message: issue.message });
  });
export type Container = z.infer<typeof container>;

const weightedPodAffinityTerm = z.looseObject({
  weight: z.number().int().min(1).max(100),
  podAffinityTerm: z.lazy(() => podAffinityTerm),
});
export const podAffinityTerm = z.looseObject({
  labelSelector: labelSelector.optional(),
  namespaces: z.array(dnsLabelName).optional(),
  namespaceSelector: labelSelector.optional(),
  topologyKey: qualifiedName,
});
export type PodAffinityTerm = z.infer<typeof podAffinityTerm>;

const podAffinity = z.looseObject({
  requiredDuringSchedulingIgnoredDuringExecution: z.array(podAffinityTerm).optional(),
  preferredDuringSchedulingIgnoredDuringExecution: z.array(weightedPodAffinityTerm).optional(),
});
export type PodAffinity = z.infer<typeof podAffinity>;

export const preferredSchedulingTerm = z.looseObject({
  weight: z.number().int().min(1).max(100),
  preference: z.looseObject({ matchExpressions: z.array(nodeSelectorRequirement).optional() }),
});
export type PreferredSchedulingTerm = z.infer<typeof preferredSchedulingTerm>;

const nodeAffinity = z.looseObject({
  requiredDuringSchedulingIgnoredDuringExecution: z
    .looseObject({ nodeSelectorTerms: z.array(nodeSelectorTerm) })
    .optional(),
  preferredDuringSchedulingIgnoredDuringExecution: z.array(preferredSchedulingTerm).optional(),
});

export const topologySpreadConstraint = z
  .looseObject({
    maxSkew: z.number().int().min(1),
    topologyKey: qualifiedName,
    whenUnsatisfiable: z.enum(['DoNotSchedule', 'ScheduleAnyway']),
    labelSelector: labelSelector.optional(),
    minDomains: z.number().int().min(1).optional(),
    nodeAffinityPolicy: z.enum(['Honor', 'Ignore']).optional(),
    nodeTaintsPolicy: z.enum(['Honor', 'Ignore']).optional(),
    matchLabelKeys: z.array(qualifiedName).optional(),
  })
  .superRefine((c, ctx) => {
    // validateMinDomains: minDomains only means something when the constraint may block scheduling
    if (c.minDomains !== undefined && c.whenUnsatisfiable !== 'DoNotSchedule')
      ctx.addIssue({
        code: 'custom',
        path: ['minDomains'],
        message: `can only be used with whenUnsatisfiable: DoNotSchedule, not ${c.whenUnsatisfiable}`,
      });
  });
export type TopologySpreadConstraint = z.infer<typeof topologySpreadConstraint>;

/** validateTopologySpreadConstraints: one constraint per (topologyKey, whenUnsatisfiable) pair. */
const topologySpreadConstraints = z.array(topologySpreadConstraint).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const pair = `${c.topologyKey}\u0000${c.whenUnsatisfiable}`;
    if (seen.has(pair))
      ctx.addIssue({
        code: 'custom',
        path: [i, 'topologyKey'],
        message: `duplicate constraint for ${c.topologyKey} with whenUnsatisfiable ${c.whenUnsatisfiable}`,
      });
    seen.add(pair);
  });
});

const volume = z.looseObject({
  name: z.string(),
  persistentVolumeClaim: z.looseObject({ claimName: z.string() }).optional(),
  // a generic ephemeral volume: the ephemeral controller creates the PVC <pod>-<volume> from the template
  ephemeral: z
    .looseObject({
      volumeClaimTemplate: z
        .looseObject({
          spec: z.looseObject({ storageClassName: z.string().nullable().optional() }).optional(),
        })
        .optional(),
    })
    .optional(),
});

export const podSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Pod'),
  metadata: objectMeta,
  spec: z.looseObject({
    nodeName: z.string().optional(),
    nodeSelector: labelMap.optional(),
    schedulerName: z.string().optional(),
    priority: z.number().int().optional(),
    priorityClassName: z.string().optional(),
    preemptionPolicy: z.string().optional(),
    containers: z.array(container).min(1, 'a pod needs at least one container'),
    initContainers: z.array(container).optional(),
    overhead: resourceList.optional(),
    // pod-level resources (Kubernetes 1.32+): validated like a container's
    resources: z
      .looseObject({ requests: resourceList.optional(), limits: resourceList.optional() })
      .superRefine((r, ctx) => {
        for (const issue of containerResourceIssues(r.requests, r.limits))
          ctx.addIssue({ code: 'custom', path: issue.path as (string | number)[], message: issue.message });
      })
      .optional(),
    tolerations: z.array(toleration).optional(),
    affinity: z
      .looseObject({
        nodeAffinity: nodeAffinity.optional(),
        podAffinity: podAffinity.optional(),
        podAntiAffinity: podAffinity.optional(),
      })
      .optional(),
    topologySpreadConstraints: topologySpreadConstraints.optional(),
    volumes: z.array(volume).optional(),
    hostNetwork: z.boolean().optional(),
    // the Workload API's gang a pod belongs to: Kubernetes 1.35 names a Workload, 1.36 a PodGroup (workload.ts)
    workloadRef: workloadRef.optional(),
    schedulingGroup: schedulingGroup.optional(),
  }),
  status: z
    .looseObject({
      phase: z.string().optional(),
      nominatedNodeName: z.string().optional(),
      conditions: z
        .array(z.looseObject({ type: z.string(), status: z.string(), reason: z.string().optional() }))
        .optional(),
      startTime: timestamp.optional(),
    })
    .optional(),
});
export type Pod = z.infer<typeof podSchema>;

export const podKey = (pod: { metadata: { namespace?: string | undefined; name: string } }): string =>
  `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
