// Registration and initialization of a claim's Node (Karpenter's nodeclaim lifecycle): the Node gets the
// claim's labels and taints, Karpenter's termination finalizer, and loses karpenter.sh/unregistered; once Ready
// with its startup taints gone and its extended resources registered, it is labelled karpenter.sh/initialized.
import {
  INITIALIZED,
  NODEPOOL,
  REGISTERED,
  TERMINATION_FINALIZER,
  UNREGISTERED_TAINT_KEY,
} from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { Pod } from '../model/pod.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { Metrics } from '../ports/metrics.ts';
import { writeClaimStatus, type ClaimStatusDeps } from './claim-status.ts';
import { setCondition } from './conditions.ts';
import { TERMINATION_GRACE } from './termination.ts';

export interface RegistrationDeps extends ClaimStatusDeps {
  readonly cluster: Cluster;
  readonly clock: Clock;
  readonly metrics: Metrics;
}

/** The claim's labels plus every single-valued In requirement, as Karpenter syncs them onto the Node. */
function nodeLabels(claim: NodeClaim): Record<string, string> {
  const labels: Record<string, string> = { ...(claim.metadata.labels ?? {}) };
  for (const r of claim.spec.requirements)
    if (r.operator === 'In' && r.values?.length === 1) labels[r.key] ??= r.values[0] as string;
  return labels;
}

export async function register(deps: RegistrationDeps, claim: NodeClaim, node: Node): Promise<void> {
  const name = node.metadata.name;
  const grace = claim.spec.terminationGracePeriod;
  await deps.cluster.patchMetadata('Node', name, {
    labels: { ...nodeLabels(claim), [REGISTERED]: 'true' },
    // Kept for the Node's drain: an operator's delete of the claim leaves only the Node (termination.ts).
    ...(grace ? { annotations: { [TERMINATION_GRACE]: grace } } : {}),
  });
  // Karpenter's registration (syncNode) adds its finalizer to the Node, so `kubectl delete node` drains before
  // the instance goes (docs/functions/lifecycle.md#a-node-an-operator-deletes). A Node already being deleted
  // cannot gain one (false): its deletion is lifecycle's to carry out, with or without it.
  await deps.cluster.addFinalizer('Node', name, TERMINATION_FINALIZER);
  const present = node.spec?.taints ?? [];
  for (const t of [...(claim.spec.taints ?? []), ...(claim.spec.startupTaints ?? [])])
    if (!present.some((p) => p.key === t.key && p.effect === t.effect)) await deps.cluster.addTaint(name, t);
  await deps.cluster.removeTaint(name, UNREGISTERED_TAINT_KEY, 'NoExecute');
  const now = deps.clock.now();
  await writeClaimStatus(deps, claim.metadata.name, (s) => ({
    ...s,
    nodeName: name,
    conditions: setCondition(s.conditions, 'Registered', 'True', now),
  }));
  deps.metrics.count(M.nodeClaimsRegisteredTotal, 1, {
    [L.nodePool]: claim.metadata.labels?.[NODEPOOL] ?? 'unknown',
  });
}

export async function initialize(
  deps: RegistrationDeps,
  claim: NodeClaim,
  node: Node,
  podsOnNode: readonly Pod[],
): Promise<void> {
  await deps.cluster.patchMetadata('Node', node.metadata.name, { labels: { [INITIALIZED]: 'true' } });
  const now = deps.clock.now();
  await writeClaimStatus(deps, claim.metadata.name, (s) => ({
    ...s,
    conditions: setCondition(s.conditions, 'Initialized', 'True', now),
  }));
  deps.metrics.count(M.nodeClaimsInitializedTotal, 1, {
    [L.nodePool]: claim.metadata.labels?.[NODEPOOL] ?? 'unknown',
  });
  // Karpenter's pod startup duration: creation until the pod's node can run it.
  for (const p of podsOnNode) {
    const created = p.metadata.creationTimestamp;
    if (created)
      deps.metrics.observe(M.podsStartupDurationSeconds, (now.getTime() - Date.parse(created)) / 1000);
  }
}
