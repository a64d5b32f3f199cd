// The negative cache's fingerprint inputs for a candidate, read from the pass snapshot (seed, "Remembering
// no-ops"): node and claim versions, NodePool identity, each pool's instance-type revision, the pods that would
// move and every NodePool a replacement could land in.
import { CLOUD } from '../model/labels.ts';
import { Requirement } from '../scheduling/requirement.ts';
import { Requirements } from '../scheduling/requirements.ts';
import type { ClusterSnapshot, NodePoolView } from '../state/snapshot.ts';
import { negativeFingerprint } from './negative-cache.ts';
import type { Candidate } from './types.ts';

/**
 * A NodePool's instance-type revision: the names, shapes, labels and offered zones and capacity types of the
 * catalog types its requirements admit — blind to price and availability, as the fork's is, so a spot-price
 * refresh or an insufficient-capacity entry does not invalidate every verdict. The TTL bounds what it cannot
 * see (docs/mechanisms/negative-cache.md).
 */
export function instanceTypeRevision(snapshot: ClusterSnapshot, view: NodePoolView): string {
  const reqs = Requirements.fromSelectors(view.pool.spec.template.spec.requirements).add(
    Requirement.in(CLOUD, view.cloud),
  );
  let h = 0;
  let count = 0;
  for (const it of snapshot.instanceTypes) {
    if (it.cloud !== view.cloud || reqs.conflict(it.requirements) !== undefined) continue;
    count++;
    const offered = [...new Set(it.offerings.map((o) => `${o.zone}/${o.capacityType}`))].sort().join(',');
    const text = `${it.name}|${JSON.stringify(it.capacity)}|${JSON.stringify(it.allocatable)}|${JSON.stringify(it.labels)}|${offered};`;
    for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  }
  return `${count}-${(h >>> 0).toString(16)}`;
}

/** Every NodePool's revision, computed once per walk. */
export function poolRevisions(snapshot: ClusterSnapshot): ReadonlyMap<string, string> {
  return new Map([...snapshot.nodePools.values()].map((v) => [v.name, instanceTypeRevision(snapshot, v)]));
}

/** Undefined (fail closed: no skip) when any part has no version, e.g. a claim derived from node labels. */
export function candidateFingerprint(
  c: Candidate,
  snapshot: ClusterSnapshot,
  revisions: ReadonlyMap<string, string>,
): string | undefined {
  return negativeFingerprint({
    candidate: c.name,
    node: c.node.node,
    claim: c.node.derivedClaim ? undefined : c.node.claim,
    nodePool: c.pool.pool,
    instanceTypeRevision: revisions.get(c.nodePool),
    pods: c.reschedulable,
    readyNodePools: [...snapshot.nodePools.values()].map((v) => ({
      pool: v.pool,
      revision: revisions.get(v.name),
    })),
  });
}
