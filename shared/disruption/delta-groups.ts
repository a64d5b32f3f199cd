// The topology groups a pod takes part in, as the scheduler's Topology would build them: the groups it owns
// (spread constraints, pod affinity and anti-affinity terms) and the inverse groups its required anti-affinity
// imposes on the pods it selects. The delta simulation uses them to find pods whose placements are coupled.
import type { PodAffinityTerm } from '../model/pod.ts';
import type { PodState } from '../scheduling/pod-state.ts';
import type { Labels } from '../scheduling/selector.ts';
import type { GroupSpec } from '../scheduling/topology-group.ts';
import { spreadSpec, termNamespaces, termSpec } from '../scheduling/topology-specs.ts';

export interface PodGroups {
  readonly owned: readonly GroupSpec[];
  readonly inverse: readonly GroupSpec[];
}

export const NO_GROUPS: PodGroups = { owned: [], inverse: [] };

export function groupsOf(p: PodState, namespaces: ReadonlyMap<string, Labels>): PodGroups {
  const term = (type: 'affinity' | 'anti-affinity', t: PodAffinityTerm) =>
    termSpec(type, t, termNamespaces(p.info, t, namespaces));
  const owned = [
    ...p.spread.map((c) => spreadSpec(p, c).spec),
    ...p.affinityRequired.map((t) => term('affinity', t)),
    ...p.affinityPreferred.map((t) => term('affinity', t.podAffinityTerm)),
    ...p.antiRequired.map((t) => term('anti-affinity', t)),
    ...p.antiPreferred.map((t) => term('anti-affinity', t.podAffinityTerm)),
  ];
  if (owned.length === 0) return NO_GROUPS;
  return { owned, inverse: inverseGroupsOf(p.info, p.antiRequired, namespaces) };
}

/** The inverse groups of a pod's required anti-affinity terms (bound pods have only these). */
export function inverseGroupsOf(
  owner: { readonly namespace: string },
  terms: readonly PodAffinityTerm[],
  namespaces: ReadonlyMap<string, Labels>,
): GroupSpec[] {
  return terms.map((t) => termSpec('inverse', t, termNamespaces(owner, t, namespaces)));
}

export const selects = (
  spec: GroupSpec,
  pod: { readonly namespace: string; readonly labels: Labels | undefined },
): boolean => spec.namespaces.has(pod.namespace) && spec.selects(pod.labels);
