// The fields each resource can be selected on (`fieldSelector`), as kube-apiserver registers them: the core kinds'
// field label conversions (pods, nodes, namespaces, events), metadata.name/namespace for every other kind, custom
// resources included (our CRDs declare no selectableFields). Any other field is 400 BadRequest.
import type { ResourceType } from './resources.ts';

const POD_FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.nominatedNodeName',
];
const EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
];

/** Kinds with their own field label conversion (pkg/apis/core/v1/conversion.go), by core plural. */
const CORE: Readonly<Record<string, readonly string[]>> = {
  pods: POD_FIELDS,
  nodes: ['metadata.name', 'spec.unschedulable'],
  namespaces: ['metadata.name', 'status.phase'],
  events: EVENT_FIELDS,
};

/** Boolean fields read as "false" when absent, as the registries' selectable-field functions format them. */
export const FIELD_DEFAULTS: Readonly<Record<string, string>> = {
  'spec.hostNetwork': 'false',
  'spec.unschedulable': 'false',
};

/**
 * The label as stored (`spec.host` is an old client's `spec.nodeName`), or the API server's refusal message:
 * "field label not supported" from a kind's own conversion, the default conversion's wording otherwise.
 */
export function fieldLabel(t: ResourceType, label: string): { label: string } | { error: string } {
  const own = t.group === '' && !t.custom ? CORE[t.plural] : undefined;
  if (own) {
    if (t.plural === 'pods' && label === 'spec.host') return { label: 'spec.nodeName' };
    return own.includes(label) ? { label } : { error: `field label not supported: ${label}` };
  }
  if (label === 'metadata.name' || label === 'metadata.namespace') return { label };
  if (t.custom) return { error: `field label not supported: ${label}` };
  return { error: `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"` };
}
