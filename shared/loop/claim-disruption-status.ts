// Publishes the NodeClaim conditions Karpenter's nodeclaim disruption controller keeps — `Consolidatable` and
// `Drifted` (shared/disruption/claim-conditions.ts) — from lifecycle's read, writing a claim only when one of them
// changed. A Drifted condition whose reason kraftsman does not judge (a cloud provider's, written by someone else)
// is left as it is.
import { claimDisruptionConditions, OWN_DRIFT_REASONS } from '../disruption/claim-conditions.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import type { NodeClaimStatus } from '../ports/cluster/index.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { buildSnapshot } from '../state/snapshot.ts';
import { isActive, isTerminatingStatefulSetPod } from '../state/pods.ts';
import type { Pod } from '../model/pod.ts';
import { writeClaimStatus, type ClaimStatusDeps } from './claim-status.ts';
import { setCondition, type Conditions } from './conditions.ts';

type Condition = Conditions[number];
const find = (c: Conditions | undefined, type: string): Condition | undefined =>
  c?.find((x) => x.type === type);

/** The conditions after the change, or undefined when nothing changes. */
function next(
  current: Conditions | undefined,
  want: { consolidatable: boolean; drifted: string | undefined },
  now: Date,
): Conditions | undefined {
  let out = current ?? [];
  let changed = false;
  const consolidatable = find(out, 'Consolidatable');
  if (want.consolidatable && consolidatable?.status !== 'True') {
    out = setCondition(out, 'Consolidatable', 'True', now);
    changed = true;
  } else if (!want.consolidatable && consolidatable) {
    out = out.filter((c) => c.type !== 'Consolidatable'); // Karpenter's Clear
    changed = true;
  }
  const drifted = find(out, 'Drifted');
  if (want.drifted && (drifted?.status !== 'True' || drifted.reason !== want.drifted)) {
    out = setCondition(out, 'Drifted', 'True', now, want.drifted, want.drifted);
    changed = true;
  } else if (!want.drifted && drifted && OWN_DRIFT_REASONS.has(drifted.reason ?? '')) {
    out = out.filter((c) => c.type !== 'Drifted');
    changed = true;
  }
  return changed ? out : undefined;
}

/** Per node, its newest pod of those the snapshot places on it: all that a node's last pod event reads. */
function newestPodPerNode(pods: readonly Pod[]): Pod[] {
  const best = new Map<string, { pod: Pod; at: number }>();
  for (const pod of pods) {
    const node = pod.spec.nodeName;
    if (!node || (!isActive(pod) && !isTerminatingStatefulSetPod(pod))) continue;
    const at = Date.parse(pod.metadata.creationTimestamp ?? '');
    const seen = best.get(node);
    if (!seen || at > seen.at || Number.isNaN(seen.at)) best.set(node, { pod, at });
  }
  return [...best.values()].map((b) => b.pod);
}

/** Writes every claim whose Consolidatable or Drifted condition changed; returns how many were written. */
export async function publishClaimDisruptionConditions(
  deps: ClaimStatusDeps,
  objects: ClusterObjects,
): Promise<number> {
  const now = deps.clock.now();
  // No instance types here: a type gone from the cloud (InstanceTypeNotFound) is the pass's to judge. Of the pods
  // only each node's newest counts (its last pod event, when the claim's status has none): summing every pod's
  // requests would be most of the snapshot's cost.
  const snapshot = buildSnapshot({ ...objects, pods: newestPodPerNode(objects.pods) }, [], {
    unknownTypesDrift: false,
  });
  const claims = new Map<string, NodeClaim>(objects.nodeClaims.map((c) => [c.metadata.name, c]));
  let written = 0;
  for (const [name, want] of claimDisruptionConditions(snapshot, now)) {
    if (!next(claims.get(name)?.status?.conditions, want, now)) continue;
    try {
      // Recomputed on the claim as read by the write (a conflict re-reads it): only these two conditions move.
      await writeClaimStatus(deps, name, (s: NodeClaimStatus) => ({
        ...s,
        conditions: next(s.conditions, want, now) ?? s.conditions ?? [],
      }));
      written += 1;
    } catch (err: unknown) {
      if (!(err instanceof ObjectNotFoundError)) throw err;
    }
  }
  return written;
}
