// ProvisioningRequest fixtures for the end-to-end tests (docs/mechanisms/provisioning-requests.md): a GPU PodTemplate,
// a request naming it, and the request's conditions as the kube emulator holds them.
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { pod } from './fixtures.ts';
import type { E2eHarness } from './harness.ts';

export type Condition = {
  type: string;
  status: string;
  reason: string;
  lastTransitionTime: string;
  observedGeneration?: number;
};

/** A PodTemplate in `ml` whose pod asks `gpus` GPUs on `cloud`. */
export function gpuTemplate(name: string, cloud: string, gpus: number): KubeObject {
  const spec = pod(name, { gpus, cpu: '1', nodeSelector: { 'kraftsman.dev/cloud': cloud } }).spec;
  return {
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { name, namespace: 'ml' },
    template: { metadata: { labels: { app: name } }, spec },
  };
}

export function provisioningRequest(name: string, cls: string, template: string, count: number): KubeObject {
  return {
    apiVersion: 'autoscaling.x-k8s.io/v1',
    kind: 'ProvisioningRequest',
    metadata: { name, namespace: 'ml' },
    spec: { provisioningClassName: cls, podSets: [{ podTemplateRef: { name: template }, count }] },
  };
}

export const requestOf = (h: E2eHarness, name: string) =>
  h.list('ProvisioningRequest').find((r) => r.metadata.name === name) as KubeObject & {
    metadata: { generation?: number; resourceVersion?: string };
    status?: { conditions?: Condition[] };
  };

export const conditionsOf = (h: E2eHarness, name: string): Record<string, Condition> =>
  Object.fromEntries((requestOf(h, name).status?.conditions ?? []).map((c) => [c.type, c]));
