// Disruption candidates (Karpenter's NewCandidate + ValidateNodeDisruptable + ValidatePodsDisruptable): every
// managed, initialized node that nothing protects, with its price, reschedulable pods, costs, Consolidatable
// status and drift. Every node filtered out is recorded with a skip reason, so the pass can say why.
import { parseNillableDuration } from '../model/duration.ts';
import { capacityTypeOf, DO_NOT_DISRUPT } from '../model/labels.ts';
import { isActive } from '../state/pods.ts';
import type { ClusterSnapshot, NodePoolView, StateNode } from '../state/snapshot.ts';
import { detectDrift } from './drift-detect.ts';
import type { GangIndex } from './gangs.ts';
import type { PdbLimits } from './pdb-limits.ts';
import {
  doNotDisruptActive,
  evictionCost,
  isEvictable,
  isReschedulable,
  lifetimeRemaining,
} from './pod-rules.ts';
import type { Candidate, Skip } from './types.ts';

export interface CandidateInputs {
  readonly snapshot: ClusterSnapshot;
  readonly pdbs: PdbLimits;
  readonly now: Date;
  /** Nodes named by a command still in flight (the disruption queue). */
  readonly claimedByCommands?: ReadonlySet<string>;
  /** Nodes a recent provisioning pass nominated for pending pods. */
  readonly nominated?: ReadonlySet<string>;
  /** Nodes an invalid object concerns (shared/loop/untouchable.ts): never candidates, expired or not. */
  readonly untouchable?: ReadonlySet<string>;
  /** Running gangs (gangs.ts): a candidate hosting a member carries the nodes it must leave with. */
  readonly gangs?: GangIndex;
  /** Nodes holding a ProvisioningRequest's booked capacity (shared/provisioning/request-booking.ts). */
  readonly booked?: ReadonlySet<string>;
}

export interface Expired {
  readonly node: string;
  readonly expiredAt: string;
}

export interface CandidateSet {
  readonly candidates: readonly Candidate[];
  readonly skipped: readonly Skip[];
  /** Nodes past expireAfter: Karpenter's expiration controller deletes them forcefully, outside budgets. */
  readonly expired: readonly Expired[];
}

export function expireAfterMs(n: StateNode, view: NodePoolView): number {
  const text = n.claim?.spec.expireAfter ?? view.pool.spec.template.spec.expireAfter;
  return parseNillableDuration(text) ?? Number.POSITIVE_INFINITY;
}

/** Consolidatable: consolidateAfter has passed since the last pod event (Never: never). */
export function isConsolidatable(n: StateNode, view: NodePoolView, now: Date): boolean {
  const after = parseNillableDuration(view.pool.spec.disruption.consolidateAfter) ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(after)) return false;
  const last = Date.parse(n.lastPodEventTime ?? n.createdAt ?? '');
  return Number.isNaN(last) || now.getTime() - last >= after;
}

/**
 * utils/disruption IsUnderConsolidateAfter: an initialized node of a pool with a non-zero consolidateAfter whose
 * window since the last pod event has not elapsed (Never is no window: such a node is never a candidate, but it
 * takes pods). The window is measured as for Consolidatable (docs/contract.md).
 */
export function isUnderConsolidateAfter(n: StateNode, view: NodePoolView, now: Date): boolean {
  const after = parseNillableDuration(view.pool.spec.disruption.consolidateAfter);
  if (after === undefined || !Number.isFinite(after) || after <= 0 || !n.initialized || n.inFlight)
    return false;
  const last = Date.parse(n.lastPodEventTime ?? n.createdAt ?? '');
  return !Number.isNaN(last) && now.getTime() - last < after;
}

export function buildCandidates(inputs: CandidateInputs): CandidateSet {
  const { snapshot, now } = inputs;
  const candidates: Candidate[] = [];
  const skipped: Skip[] = [];
  const expired: Expired[] = [];
  for (const n of snapshot.nodes) {
    // Unmanaged nodes and claims without a node are never candidates, so they are not "skipped" either.
    if (!n.managed || n.node === undefined) continue;
    const skip = (reason: Skip['reason']) => skipped.push({ node: n.name, reason });
    // What the pass knows of it may be wrong (a pod it could not read makes the node look emptier).
    if (inputs.untouchable?.has(n.name)) {
      skip('invalid-object');
      continue;
    }
    if (inputs.claimedByCommands?.has(n.name)) {
      skip('claimed-by-pending-command');
      continue;
    }
    if (!n.initialized) {
      skip('not-initialized');
      continue;
    }
    if (n.markedForDeletion) {
      skip('marked-for-deletion');
      continue;
    }
    if (inputs.nominated?.has(n.name)) {
      skip('nominated');
      continue;
    }
    // Cluster Autoscaler's booked pods sit on the node, so its scale-down keeps it (processors/provreq).
    if (inputs.booked?.has(n.name)) {
      skip('provisioning-request');
      continue;
    }
    if (n.node.metadata.annotations?.[DO_NOT_DISRUPT] === 'true') {
      skip('do-not-disrupt');
      continue;
    }
    const view = n.nodePool ? snapshot.nodePools.get(n.nodePool) : undefined;
    if (!view) {
      skip('nodepool-not-found');
      continue;
    }
    const expireMs = expireAfterMs(n, view);
    const created = Date.parse(n.createdAt ?? '');
    if (Number.isFinite(expireMs) && !Number.isNaN(created) && created + expireMs <= now.getTime()) {
      expired.push({ node: n.name, expiredAt: new Date(created + expireMs).toISOString() });
      skip('expired');
      continue;
    }
    candidates.push(toCandidate(n, view, inputs, expireMs));
  }
  return { candidates, skipped, expired };
}

function toCandidate(n: StateNode, view: NodePoolView, inputs: CandidateInputs, expireMs: number): Candidate {
  const { now, pdbs, snapshot } = inputs;
  let podBlock: Candidate['podBlock'];
  // IsDisruptable: only an active pod's do-not-disrupt blocks (a terminating StatefulSet pod's does not)
  if (n.pods.some((p) => isActive(p) && doNotDisruptActive(p, now))) podBlock = 'do-not-disrupt';
  else if (n.pods.some((p) => isEvictable(p, now) && pdbs.blockers(p).length > 0)) podBlock = 'pdb-blocked';
  const reschedulable = n.pods.filter(isReschedulable);
  const gang = inputs.gangs?.tiesOf(n.name);
  const rescheduling = n.pods.reduce((s, p) => s + evictionCost(p), 0);
  return {
    name: n.name,
    node: n,
    pool: view,
    nodePool: view.name,
    instanceType: n.instanceType,
    zone: n.zone,
    capacityType: capacityTypeOf(n.capacityType),
    price: n.price ?? 0,
    pods: n.pods,
    reschedulable,
    disruptionCost: rescheduling * lifetimeRemaining(n.createdAt, expireMs, now),
    rescheduleCost: 1 + reschedulable.reduce((s, p) => s + Math.max(0, evictionCost(p)), 0),
    consolidatable: isConsolidatable(n, view, now),
    podBlock,
    terminationGracePeriod:
      n.claim?.spec.terminationGracePeriod !== undefined ||
      view.pool.spec.template.spec.terminationGracePeriod !== undefined,
    drift: detectDrift(n, view, snapshot),
    ...(gang ? { gang } : {}),
  };
}
