// Gang-aware expiration (docs/mechanisms/gangs.md#expiration): when a node of a running gang expires, the gang's
// other nodes are terminated in the same step, reason `expired`, so the job restarts once instead of once per node.
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import { gangMinimums, gangOf, perNodeGangs } from '../state/gangs.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { isActive } from '../state/pods.ts';

/** A claim terminated because a node of its gang expired. */
export interface GangCompanion {
  readonly claim: NodeClaim;
  readonly node: Node;
  /** Why, naming the gang and the expired claim. */
  readonly detail: string;
}

/**
 * The claims to end beside `expired` ones: every other node hosting a bound member of a running gang (at least its
 * minimum bound) that also has a member on an expiring node, unless the gang opts out (`per-node`). Karpenter v1's
 * expiration is forceful (it waits for no budget, PDB or do-not-disrupt), and losing one member ends the gang's
 * job anyway (Volcano restarts a job on PodEvicted), so the companions go now rather than each on its own clock,
 * which would restart the job once per node. Claims already being deleted or already expiring are not repeated.
 */
export function gangCompanions(objects: ClusterObjects, expired: readonly NodeClaim[]): GangCompanion[] {
  if (expired.length === 0) return [];
  const minimums = gangMinimums(objects);
  const perNode = perNodeGangs(objects);
  const nodes = new Map(objects.nodes.map((n) => [n.metadata.name, n]));
  const claimOfNode = new Map<string, NodeClaim>();
  const byProvider = new Map(objects.nodeClaims.map((c) => [c.status?.providerID, c]));
  for (const n of objects.nodes) {
    const c = n.spec?.providerID ? byProvider.get(n.spec.providerID) : undefined;
    if (c) claimOfNode.set(n.metadata.name, c);
  }
  const bound = new Map<string, { min: number; count: number; nodes: Set<string> }>();
  for (const p of objects.pods) {
    const node = p.spec.nodeName;
    const gang = node && isActive(p) ? gangOf(p, minimums) : undefined;
    if (!node || !gang || perNode(gang.name)) continue;
    let g = bound.get(gang.name);
    if (!g) bound.set(gang.name, (g = { min: gang.minMember, count: 0, nodes: new Set() }));
    g.count += 1;
    g.nodes.add(node);
  }
  const expiring = new Set(expired.map((c) => c.metadata.name));
  const out: GangCompanion[] = [];
  const taken = new Set<string>();
  for (const claim of expired) {
    const node = claim.status?.nodeName;
    if (!node) continue;
    for (const [gang, g] of [...bound].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (!g.nodes.has(node) || g.count < Math.max(1, g.min)) continue;
      for (const other of [...g.nodes].sort()) {
        const c = claimOfNode.get(other);
        const n = nodes.get(other);
        if (!c || !n || c.metadata.deletionTimestamp) continue;
        if (expiring.has(c.metadata.name) || taken.has(c.metadata.name)) continue;
        taken.add(c.metadata.name);
        out.push({
          claim: c,
          node: n,
          detail: `gang ${gang} loses its member on expired NodeClaim ${claim.metadata.name}: its nodes expire together`,
        });
      }
    }
  }
  return out;
}
