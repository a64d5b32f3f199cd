// The negative cache's fingerprint (docs/mechanisms/negative-cache.md): what a no-op verdict depends on, read
// from the pass snapshot (node and claim versions, NodePool identity, each pool's instance-type revision, the
// pods that would move and every NodePool a replacement could land in), hashed with the one hash of this file.
import { CLOUD } from '../model/labels.ts';
import { Requirement } from '../scheduling/requirement.ts';
import { Requirements } from '../scheduling/requirement-set.ts';
import type { ClusterSnapshot, NodePoolView } from '../state/snapshot.ts';
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

/** Two cyrb53 seeds (~106 bits): the one hash of the disruption core's fingerprints. */
export const hashText = (text: string): string => `${hash(text, 0x9e3779b9)}${hash(text, 0x85ebca6b)}`;

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
  const parts: string[] = [];
  for (const it of snapshot.instanceTypes) {
    if (it.cloud !== view.cloud || reqs.conflict(it.requirements) !== undefined) continue;
    const offered = [...new Set(it.offerings.map((o) => `${o.zone}/${o.capacityType}`))].sort().join(',');
    parts.push(
      `${it.name}|${JSON.stringify(it.capacity)}|${JSON.stringify(it.allocatable)}|${JSON.stringify(it.labels)}|${offered};`,
    );
  }
  return `${parts.length}-${hash(parts.join(''), 0)}`;
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
    // a NotReady pool (docs/mechanisms/pool-readiness.md) is no destination: it turning Ready changes the print
    readyNodePools: [...snapshot.nodePools.values()]
      .filter((v) => !v.notReady)
      .map((v) => ({
        pool: v.pool,
        revision: revisions.get(v.name),
      })),
  });
}

/** The hash of this file over any canonical text (the replacement backoff's fingerprint uses it too). */
export const fingerprintDigest = (canonical: string): string =>
  `${hash(canonical, 0x9e3779b9)}${hash(canonical, 0x85ebca6b)}`;
