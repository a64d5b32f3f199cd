// The negative cache's fingerprint (docs/mechanisms/negative-cache.md): what a no-op verdict depends on, read from the
// pass snapshot (node and claim versions, NodePool identity, the catalog revision, the pods that would move and
// every NodePool a replacement could land in), hashed with the one hash of this file.
import type { ClusterSnapshot } from '../state/snapshot.ts';
import type { Candidate } from './types.ts';

/** The metadata a fingerprint reads; every Kubernetes object in shared/model has this shape. */
export interface Versioned {
  readonly metadata: {
    readonly uid?: string;
    readonly resourceVersion?: string;
    readonly generation?: number;
  };
}

export interface FingerprintInput {
  readonly candidate: string;
  /** The candidate's Node and NodeClaim: a claim derived from labels (no object) has no version, so no fingerprint. */
  readonly node: Versioned | undefined;
  readonly claim: Versioned | undefined;
  readonly nodePool: Versioned;
  /** Revision of the candidate pool's instance types (catalog and offerings as the pass read them). */
  readonly instanceTypeRevision: string | undefined;
  /** Every pod that would move if the candidate went away. */
  readonly pods: readonly Versioned[];
  /** Every ready NodePool, each with its instance-type revision: a replacement could land in any of them. */
  readonly readyNodePools: readonly { readonly pool: Versioned; readonly revision: string | undefined }[];
}

/**
 * The fingerprint of docs/mechanisms/negative-cache.md: node + claim resourceVersion, NodePool UID &
 * generation, instance-type revision, UID & resourceVersion of every pod that would move, and every ready
 * NodePool's UID, generation & revision. Order of pods and pools does not matter. Undefined when any part
 * is missing: fail closed — no fingerprint, no skip.
 */
export function negativeFingerprint(input: FingerprintInput): string | undefined {
  const nodeVersion = input.node?.metadata.resourceVersion;
  const claimVersion = input.claim?.metadata.resourceVersion;
  const pool = poolKey(input.nodePool, input.instanceTypeRevision);
  if (!input.candidate || !nodeVersion || !claimVersion || !pool) return undefined;
  const pods: string[] = [];
  for (const p of input.pods) {
    if (!p.metadata.uid || !p.metadata.resourceVersion) return undefined;
    pods.push(`${p.metadata.uid}@${p.metadata.resourceVersion}`);
  }
  const pools: string[] = [];
  for (const r of input.readyNodePools) {
    const k = poolKey(r.pool, r.revision);
    if (!k) return undefined;
    pools.push(k);
  }
  const canonical = JSON.stringify([
    'v1',
    input.candidate,
    nodeVersion,
    claimVersion,
    pool,
    pods.sort(),
    pools.sort(),
  ]);
  return `fp1:${hash(canonical, 0x9e3779b9)}${hash(canonical, 0x85ebca6b)}`;
}

function poolKey(pool: Versioned, revision: string | undefined): string | undefined {
  const { uid, generation } = pool.metadata;
  if (!uid || generation === undefined || revision === undefined || revision === '') return undefined;
  return `${uid}/${generation}/${revision}`;
}

/** cyrb53 (a public-domain 53-bit string hash); two seeds give ~106 bits. A collision could only delay a consolidation until the TTL. */
function hash(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** A revision of the catalog as this pass read it: any price or availability change changes it. */
export function catalogRevision(snapshot: ClusterSnapshot): string {
  const text = snapshot.instanceTypes
    .map(
      (it) =>
        `${it.name}|${it.offerings.map((o) => `${o.zone}/${o.capacityType}/${o.price}/${o.available}`).join(',')};`,
    )
    .join('');
  return `${snapshot.instanceTypes.length}-${hash(text, 0)}`;
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
