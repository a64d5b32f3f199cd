// How a pod's spread constraints and (anti-)affinity terms become topology group specs: the group identity
// (hash), the namespaces a term looks in, and the node filter a spread constraint's policies imply.
import type { Toleration } from '../model/meta.ts';
import type { PodAffinityTerm, TopologySpreadConstraint } from '../model/pod.ts';
import type { PodState } from './pod-state.ts';
import type { Requirements } from './requirement-set.ts';
import { compileSelector, selectorAnchor, selectorKey, type Labels } from './selector.ts';
import type { GroupSpec, TopologyType } from './topology-group.ts';

/** Which nodes a spread group counts: nodeAffinityPolicy Honor → the owner's terms; nodeTaintsPolicy Honor → its tolerations. */
export interface Filter {
  readonly terms: readonly Requirements[] | undefined;
  readonly tolerations: readonly Toleration[] | undefined;
}

export function spreadSpec(pod: PodState, c: TopologySpreadConstraint): { spec: GroupSpec; filter: Filter } {
  const selector = { ...(c.labelSelector ?? {}) };
  if (c.matchLabelKeys?.length) {
    selector.matchLabels = { ...(selector.matchLabels ?? {}) };
    for (const k of c.matchLabelKeys) {
      const v = pod.info.labels[k];
      if (v !== undefined) selector.matchLabels[k] = v;
    }
  }
  const honorAffinity = (c.nodeAffinityPolicy ?? 'Honor') === 'Honor';
  const honorTaints = c.nodeTaintsPolicy === 'Honor';
  const filter: Filter = {
    terms: honorAffinity ? pod.strictTerms : undefined,
    tolerations: honorTaints ? pod.tolerations : undefined,
  };
  const hash = [
    'spread',
    c.topologyKey,
    pod.info.namespace,
    selectorKey(c.labelSelector ? selector : undefined),
    c.maxSkew,
    c.minDomains ?? '',
    honorAffinity ? filter.terms?.map(String).join('|') : '-',
    honorTaints ? JSON.stringify(pod.tolerations) : '-',
  ].join('\u0001');
  const spec: GroupSpec = {
    type: 'spread',
    key: c.topologyKey,
    hash,
    namespaces: new Set([pod.info.namespace]),
    selects: compileSelector(c.labelSelector ? selector : undefined),
    anchor: selectorAnchor(c.labelSelector ? selector : undefined),
    maxSkew: c.maxSkew,
    minDomains: c.minDomains,
    honorAffinity,
    honorTaints,
  };
  return { spec, filter };
}

/** A pod (anti-)affinity term's group; 'inverse' is the anti-affinity a pod imposes on the pods it selects. */
export function termSpec(
  type: TopologyType | 'inverse',
  term: PodAffinityTerm,
  namespaces: ReadonlySet<string>,
): GroupSpec {
  const hash = [
    type,
    term.topologyKey,
    [...namespaces].sort().join(','),
    selectorKey(term.labelSelector),
  ].join('\u0001');
  return {
    type: type === 'inverse' ? 'anti-affinity' : type,
    key: term.topologyKey,
    hash,
    namespaces,
    selects: compileSelector(term.labelSelector),
    anchor: selectorAnchor(term.labelSelector),
    maxSkew: 0,
    minDomains: undefined,
    honorAffinity: false,
    honorTaints: false,
  };
}

/** The namespaces a term looks in: its list, those its namespaceSelector matches, else the pod's own. */
export function termNamespaces(
  pod: { readonly namespace: string },
  term: PodAffinityTerm,
  namespaces: ReadonlyMap<string, Labels>,
): Set<string> {
  const out = new Set(term.namespaces ?? []);
  if (term.namespaceSelector) {
    const match = compileSelector(term.namespaceSelector);
    for (const [name, labels] of namespaces) if (match(labels)) out.add(name);
  }
  if (!term.namespaces?.length && !term.namespaceSelector) out.add(pod.namespace);
  return out;
}

/** The specs a pod's own groups and its inverse anti-affinity groups have, in the order topology builds them. */
export interface OwnSpecs {
  readonly groups: readonly { readonly spec: GroupSpec; readonly filter?: Filter }[];
  readonly inverse: readonly GroupSpec[];
}

const ownMemo = new WeakMap<
  PodState,
  { revision: number; namespaces: ReadonlyMap<string, Labels>; specs: OwnSpecs }
>();

/**
 * A pod's group specs, derived once per pod state and namespace set (a pass builds one topology per simulation
 * over the same pending pods; docs/mechanisms/delta-simulation.md): recomputed after a relaxation changes the pod.
 */
export function ownSpecs(pod: PodState, namespaces: ReadonlyMap<string, Labels>): OwnSpecs {
  const known = ownMemo.get(pod);
  if (known && known.revision === pod.revision && known.namespaces === namespaces) return known.specs;
  const term = (type: TopologyType, t: PodAffinityTerm) => ({
    spec: termSpec(type, t, termNamespaces(pod.info, t, namespaces)),
  });
  const specs: OwnSpecs = {
    groups: [
      ...pod.spread.map((c) => spreadSpec(pod, c)),
      ...pod.affinityRequired.map((t) => term('affinity', t)),
      ...pod.affinityPreferred.map((t) => term('affinity', t.podAffinityTerm)),
      ...pod.antiRequired.map((t) => term('anti-affinity', t)),
      ...pod.antiPreferred.map((t) => term('anti-affinity', t.podAffinityTerm)),
    ],
    inverse: pod.antiRequired.map((t) => termSpec('inverse', t, termNamespaces(pod.info, t, namespaces))),
  };
  ownMemo.set(pod, { revision: pod.revision, namespaces, specs });
  return specs;
}
