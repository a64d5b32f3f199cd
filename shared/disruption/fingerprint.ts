// The negative cache's fingerprint inputs for a candidate, read from the pass snapshot (seed, "Remembering
// no-ops"): node and claim versions, NodePool identity, the catalog revision, the pods that would move and
// every NodePool a replacement could land in.
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { negativeFingerprint } from './negative-cache.ts';
import type { Candidate } from './types.ts';

/** A revision of the catalog as this pass read it: any price or availability change changes it. */
export function catalogRevision(snapshot: ClusterSnapshot): string {
  let h = 0;
  for (const it of snapshot.instanceTypes) {
    const text = `${it.name}|${it.offerings.map((o) => `${o.zone}/${o.capacityType}/${o.price}/${o.available}`).join(',')};`;
    for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  }
  return `${snapshot.instanceTypes.length}-${(h >>> 0).toString(16)}`;
}

/** Undefined (fail closed: no skip) when any part has no version, e.g. a claim derived from node labels. */
export function candidateFingerprint(
  c: Candidate,
  snapshot: ClusterSnapshot,
  revision: string,
): string | undefined {
  return negativeFingerprint({
    candidate: c.name,
    node: c.node.node,
    claim: c.node.derivedClaim ? undefined : c.node.claim,
    nodePool: c.pool.pool,
    instanceTypeRevision: revision,
    pods: c.reschedulable,
    readyNodePools: [...snapshot.nodePools.values()].map((v) => ({ pool: v.pool, revision })),
  });
}
