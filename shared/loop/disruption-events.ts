// Karpenter's disruption events (pkg/controllers/disruption/events/events.go), by kraftsman's skip reasons and
// command steps: `DisruptionBlocked` and `Unconsolidatable` on a candidate's Node and NodeClaim, a NodePool's
// blocking budget, and `DisruptionLaunching` / `DisruptionWaitingReadiness` / `DisruptionTerminating` as a
// command advances (docs/observability.md, "Events").
import type { ClusterEvent, InvolvedObject } from '../ports/cluster/index.ts';
import type { Skip, SkipReason } from '../disruption/types.ts';
import type { CandidateIdentity, CommandRecord } from '../ports/state-store/records.ts';
import { reasonOfMethod } from './decision-log.ts';
import type { ClusterSnapshot, StateNode } from '../state/snapshot.ts';

/** Karpenter's Unconsolidatable DedupeTimeout. */
const UNCONSOLIDATABLE_DEDUPE_MS = 15 * 60_000;
/** A NodePool's budget can change every minute (Karpenter's NodePoolBlocked timeout). */
const POOL_BLOCKED_DEDUPE_MS = 60_000;

type Wording = (n: StateNode) => string;
/** Karpenter's candidate-filter errors, in pretty.Sentence form (state/statenode.go, disruption/types.go). */
const BLOCKED: Partial<Record<SkipReason, Wording>> = {
  'not-initialized': () => "Node isn't initialized",
  'marked-for-deletion': () => 'Node is deleting or marked for deletion',
  nominated: () => 'Node is nominated for a pending pod',
  'nodepool-not-found': (n) => `NodePool not found (NodePool=${n.nodePool ?? ''})`,
  'pdb-blocked': () => 'Pdb prevents pod evictions',
  'claimed-by-pending-command': () => 'Candidate is already being disrupted',
  'invalid-object': () => 'An object about the node fails validation (kraftsman leaves it untouched)',
  // kraftsman's own (docs/mechanisms/gangs.md, "Disruption"): Karpenter has no gang rule to word it.
  gang: () => "Node hosts a member of a running gang whose other nodes can't be disrupted with it",
  // kraftsman's own (docs/mechanisms/provisioning-requests.md, "Booking"): Karpenter reads no ProvisioningRequests.
  'provisioning-request': () => 'Node holds capacity a ProvisioningRequest booked',
};
/** Karpenter's consolidation messages (disruption/consolidation.go, emptiness.go). */
const UNCONSOLIDATABLE: Partial<Record<SkipReason, Wording>> = {
  'unknown-instance-type': (n) =>
    `Instance Type "${n.labels['node.kubernetes.io/instance-type'] ?? ''}" not found`,
  'missing-labels': () => 'Node does not have label "karpenter.sh/capacity-type"',
  'consolidation-disabled': (n) => `NodePool "${n.nodePool ?? ''}" has consolidation disabled`,
  'when-empty-policy': (n) =>
    `NodePool "${n.nodePool ?? ''}" has consolidation policy WhenEmpty, but node is not empty`,
  'unschedulable-pods': () => 'Not all pods would schedule elsewhere',
  'multiple-replacements-required': () => "Can't remove without creating more than one replacement",
  'no-cheaper-replacement': () => "Can't replace with a cheaper node",
  'spot-to-spot-disabled': () =>
    "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node",
  'spot-to-spot-insufficient-types': () =>
    'SpotToSpotConsolidation requires 15 cheaper instance type options than the current candidate to consolidate',
};

/** The Node and NodeClaim a candidate event goes on (both, as Karpenter publishes them). */
export function candidateObjects(n: StateNode): InvolvedObject[] {
  const out: InvolvedObject[] = [];
  if (n.node)
    out.push({ kind: 'Node', name: n.name, ...(n.node.metadata.uid ? { uid: n.node.metadata.uid } : {}) });
  if (n.claim && !n.derivedClaim)
    out.push({
      kind: 'NodeClaim',
      name: n.claim.metadata.name,
      ...(n.claim.metadata.uid ? { uid: n.claim.metadata.uid } : {}),
    });
  return out;
}

const dedupe = (o: InvolvedObject) => [o.uid ?? `${o.kind}/${o.name}`];

/** One pass's skips as events: at most one per node (the first skip that has Karpenter wording). */
export function skipEvents(skips: readonly Skip[], snapshot: ClusterSnapshot, at: Date): ClusterEvent[] {
  const nodes = new Map(snapshot.nodes.map((n) => [n.name, n]));
  const out: ClusterEvent[] = [];
  const done = new Set<string>();
  const blockedPools = new Set<string>();
  for (const s of skips) {
    const n = nodes.get(s.node);
    if (!n || done.has(s.node)) continue;
    if (s.reason === 'budget-exhausted' && n.nodePool) blockedPools.add(n.nodePool);
    const blocked = BLOCKED[s.reason];
    const unconsolidatable = UNCONSOLIDATABLE[s.reason];
    if (!blocked && !unconsolidatable) continue;
    done.add(s.node);
    const message = (blocked ?? unconsolidatable)!(n);
    for (const involved of candidateObjects(n))
      out.push({
        involved,
        type: 'Normal',
        reason: blocked ? 'DisruptionBlocked' : 'Unconsolidatable',
        message,
        at,
        dedupeValues: dedupe(involved),
        ...(blocked ? {} : { dedupeTimeoutMs: UNCONSOLIDATABLE_DEDUPE_MS }),
      });
  }
  for (const pool of blockedPools)
    out.push({
      involved: { kind: 'NodePool', name: pool },
      type: 'Normal',
      reason: 'DisruptionBlocked',
      message: 'No allowed disruptions due to blocking budget',
      at,
      dedupeValues: [pool],
      dedupeTimeoutMs: POOL_BLOCKED_DEDUPE_MS,
    });
  return out;
}

/** Karpenter titles the reason (cases.Title): `Underutilized`, `Empty`, `Drifted` already are. */
export const launchingEvent = (claim: InvolvedObject, reason: string, at: Date): ClusterEvent => ({
  involved: claim,
  type: 'Normal',
  reason: 'DisruptionLaunching',
  message: `Launching NodeClaim: ${reason}`,
  at,
  dedupeValues: [claim.uid ?? claim.name, reason],
});

export const waitingEvent = (claim: InvolvedObject, at: Date): ClusterEvent => ({
  involved: claim,
  type: 'Normal',
  reason: 'DisruptionWaitingReadiness',
  message: 'Waiting on readiness to continue disruption',
  at,
  dedupeValues: [claim.uid ?? claim.name],
});

export const terminatingEvents = (
  objects: readonly InvolvedObject[],
  reason: string,
  at: Date,
): ClusterEvent[] =>
  objects.map((o) => ({
    involved: o,
    type: 'Normal',
    reason: 'DisruptionTerminating',
    message: `Disrupting ${o.kind}: ${reason}`,
    at,
    dedupeValues: [o.uid ?? o.name, reason],
  }));

/** Karpenter's DisruptionWaitingReadiness on each replacement while the command waits for it (queue.go). */
export const commandWaiting = (cmd: CommandRecord, at: Date): ClusterEvent[] =>
  (cmd.replacementIdentities ?? cmd.replacements.map((claim) => ({ claim, claimUid: undefined }))).map((r) =>
    waitingEvent({ kind: 'NodeClaim', name: r.claim, ...(r.claimUid ? { uid: r.claimUid } : {}) }, at),
  );

/** Karpenter's DisruptionTerminating on each candidate's Node and NodeClaim as its drain begins. */
export function commandTerminating(cmd: CommandRecord, at: Date): ClusterEvent[] {
  const ids: readonly Partial<CandidateIdentity>[] =
    cmd.identities ?? cmd.candidates.map((node) => ({ node }));
  const objects = ids.flatMap((c): InvolvedObject[] => [
    ...(c.node ? [{ kind: 'Node' as const, name: c.node, ...(c.nodeUid ? { uid: c.nodeUid } : {}) }] : []),
    ...(c.claim
      ? [{ kind: 'NodeClaim' as const, name: c.claim, ...(c.claimUid ? { uid: c.claimUid } : {}) }]
      : []),
  ]);
  return terminatingEvents(objects, reasonOfMethod(cmd.method), at);
}
