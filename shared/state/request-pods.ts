// The pods a ProvisioningRequest stands for (docs/mechanisms/provisioning-requests.md), made as Cluster Autoscaler's
// PodsForProvisioningRequest makes them (provisioningrequest/pods/pods.go): `count` pods per pod set from its
// PodTemplate, named `<request>-<set>-<i>`, annotated with the request and its class, created when the request was.
import type { Pod } from '../model/pod.ts';
import {
  CONSUME_REQUEST,
  REQUEST_CLASS,
  type PodTemplate,
  type ProvisioningRequest,
} from '../model/provisioning-request.ts';

/** A pod set names a PodTemplate that is not in the snapshot: the request cannot be read. */
export class MissingPodTemplateError extends Error {
  override name = 'MissingPodTemplateError';
}

export const requestKey = (pr: ProvisioningRequest): string =>
  `${pr.metadata.namespace ?? 'default'}/${pr.metadata.name}`;

/** The PodTemplate a pod set of `pr` names (same namespace), or an error naming the request, set and template. */
export function templateOf(
  pr: ProvisioningRequest,
  set: number,
  templates: ReadonlyMap<string, PodTemplate>,
): PodTemplate {
  const namespace = pr.metadata.namespace ?? 'default';
  const name = pr.spec.podSets[set]?.podTemplateRef.name ?? '';
  const t = templates.get(`${namespace}/${name}`);
  if (!t)
    throw new MissingPodTemplateError(
      `ProvisioningRequest ${requestKey(pr)}: spec.podSets[${set}].podTemplateRef.name: PodTemplate ${namespace}/${name} is not in the input`,
    );
  return t;
}

export const templatesByKey = (templates: readonly PodTemplate[]): Map<string, PodTemplate> =>
  new Map(templates.map((t) => [`${t.metadata.namespace ?? 'default'}/${t.metadata.name}`, t]));

export function requestPods(pr: ProvisioningRequest, templates: ReadonlyMap<string, PodTemplate>): Pod[] {
  const namespace = pr.metadata.namespace ?? 'default';
  const pods: Pod[] = [];
  pr.spec.podSets.forEach((set, i) => {
    const t = templateOf(pr, i, templates);
    for (let j = 0; j < set.count; j++) {
      const name = `${pr.metadata.name}-${i}-${j}`;
      pods.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          ...(t.template.metadata ?? {}),
          name,
          namespace,
          uid: `${namespace}/${name}`,
          annotations: {
            ...(t.template.metadata?.annotations ?? {}),
            [CONSUME_REQUEST]: pr.metadata.name,
            [REQUEST_CLASS]: pr.spec.provisioningClassName,
          },
          ...(pr.metadata.creationTimestamp ? { creationTimestamp: pr.metadata.creationTimestamp } : {}),
        },
        spec: t.template.spec,
      });
    }
  });
  return pods;
}
