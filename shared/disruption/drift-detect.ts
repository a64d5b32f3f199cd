// Whether a node has drifted from its NodePool (Karpenter's NodeClaim Drifted condition, computed here from
// the snapshot): an explicit Drifted condition, a NodePool hash mismatch, requirements the node no longer
// satisfies, an instance type gone from the catalog, or a node class hash mismatch.
import { NODEPOOL_HASH, NODEPOOL_HASH_VERSION, INSTANCE_TYPE, WELL_KNOWN_LABELS } from '../model/labels.ts';
import { Requirements } from '../scheduling/requirement-set.ts';
import type { ClusterSnapshot, NodePoolView, StateNode } from '../state/snapshot.ts';
import type { Drift, DriftKind } from './types.ts';

const annotationsOf = (n: StateNode): Readonly<Record<string, string>> => ({
  ...(n.claim?.metadata.annotations ?? {}),
  ...(n.node?.metadata.annotations ?? {}),
});

const since = (n: StateNode): number => Date.parse(n.createdAt ?? '') || 0;

/**
 * Karpenter's drift reasons, as its Drifted condition and a drift command name them (docs/contract.md): core's
 * NodePoolDrifted and RequirementsDrifted, the provider's NodeClassDrifted, and InstanceTypeNotFound when the
 * cloud no longer offers the type. An explicit condition keeps the reason it carries.
 */
const REASONS: Readonly<Record<Exclude<DriftKind, 'condition'>, string>> = {
  'nodepool-hash': 'NodePoolDrifted',
  requirements: 'RequirementsDrifted',
  'instance-type-gone': 'InstanceTypeNotFound',
  'nodeclass-hash': 'NodeClassDrifted',
};
const drifted = (kind: Exclude<DriftKind, 'condition'>, since: number): Drift => ({
  kind,
  since,
  reason: REASONS[kind],
});

export function detectDrift(n: StateNode, view: NodePoolView, snapshot: ClusterSnapshot): Drift | undefined {
  const condition = n.claim?.status?.conditions?.find((c) => c.type === 'Drifted');
  if (condition?.status === 'True')
    return {
      kind: 'condition',
      since: Date.parse(condition.lastTransitionTime ?? '') || since(n),
      reason: condition.reason || 'Drifted',
    };
  const own = annotationsOf(n);
  const poolAnn = view.pool.metadata.annotations ?? {};
  // Karpenter compares the hashes only when both were computed by the same hash version.
  const poolHash = poolAnn[NODEPOOL_HASH];
  if (
    poolHash !== undefined &&
    own[NODEPOOL_HASH] !== undefined &&
    poolAnn[NODEPOOL_HASH_VERSION] === own[NODEPOOL_HASH_VERSION] &&
    poolHash !== own[NODEPOOL_HASH]
  ) {
    return drifted('nodepool-hash', since(n));
  }
  // areRequirementsDrifted: the node's labels must still satisfy the NodePool's requirements.
  const poolReqs = Requirements.fromSelectors(view.pool.spec.template.spec.requirements);
  // A NodeClaim carries every label of its instance type; a snapshot's Node may not, so the catalog fills them in.
  const labels = { ...(n.instanceType?.labels ?? {}), ...n.labels };
  if (Requirements.fromLabels(labels).incompatibility(poolReqs, WELL_KNOWN_LABELS) !== undefined)
    return drifted('requirements', since(n));
  const typeName = n.labels[INSTANCE_TYPE];
  if (
    typeName !== undefined &&
    snapshot.unknownTypesDrift !== false &&
    !snapshot.instanceTypesByName.has(typeName)
  )
    return drifted('instance-type-gone', since(n));
  // The provider's node class hash (e.g. karpenter.k8s.aws/ec2nodeclass-hash) stamped on the claim at launch.
  for (const [key, value] of Object.entries(view.nodeClass?.metadata.annotations ?? {})) {
    if (!key.endsWith('nodeclass-hash')) continue;
    if (own[key] !== undefined && own[key] !== value) return drifted('nodeclass-hash', since(n));
  }
  return undefined;
}
