// Which unbound pods are provisioning demand right now (Karpenter's IsProvisionable with the Volcano fix),
// and which are already covered by a nomination to a claim still in flight: those wait for their claim and
// must not open a second one. An in-flight claim that hosts nominations counts as full.
import type { NodeClaim } from '../model/nodeclaim.ts';
import { podKey, type Pod } from '../model/pod.ts';
import { ignoreReason } from '../state/pods.ts';
import type { ClusterObjects } from '../state/objects.ts';

export interface PodNomination {
  readonly podKey: string;
  readonly claimName?: string;
  readonly nodeName?: string;
  readonly expiresAt: Date;
}

export interface Demand {
  /** Pods the next scheduling run places. */
  readonly pods: readonly Pod[];
  /** Pods waiting for the in-flight claim they were nominated to. */
  readonly covered: readonly Pod[];
  /** In-flight claims holding nominations: left out of the run so their room is not handed out twice. */
  readonly reservedClaims: ReadonlySet<string>;
}

/** A claim without a Node yet and not being deleted: its pods wait for it. */
function inFlightClaims(objects: ClusterObjects): Map<string, NodeClaim> {
  const providers = new Set(objects.nodes.map((n) => n.spec?.providerID).filter(Boolean));
  const nodeNames = new Set(objects.nodes.map((n) => n.metadata.name));
  const out = new Map<string, NodeClaim>();
  for (const c of objects.nodeClaims) {
    if (c.metadata.deletionTimestamp) continue;
    const registered =
      (c.status?.nodeName && nodeNames.has(c.status.nodeName)) ||
      (c.status?.providerID && providers.has(c.status.providerID));
    if (!registered) out.set(c.metadata.name, c);
  }
  return out;
}

export function pendingDemand(
  objects: ClusterObjects,
  nominations: ReadonlyMap<string, PodNomination>,
  now: Date,
  volcanoFix: boolean,
): Demand {
  const inFlight = inFlightClaims(objects);
  const pods: Pod[] = [];
  const covered: Pod[] = [];
  const reserved = new Set<string>();
  for (const pod of objects.pods) {
    if (pod.spec.nodeName || ignoreReason(pod, volcanoFix)) continue;
    const n = nominations.get(podKey(pod));
    const claim = n?.claimName && n.expiresAt > now ? inFlight.get(n.claimName) : undefined;
    if (claim) {
      covered.push(pod);
      reserved.add(claim.metadata.name);
    } else pods.push(pod);
  }
  return { pods, covered, reservedClaims: reserved };
}
