// The cluster-sync gate of a disruption pass (docs/mechanisms/sync-gate.md). Karpenter runs disruption only on a
// Synced cluster state, and a NodeClaim without a providerID keeps it unsynced (state.Cluster.Synced): such a
// claim is not a node yet. The gate exists for disruption commands: a pass that runs while a command's
// replacement has not launched sees the command's candidates leaving and no room for their pods, and launches
// that capacity again. The fork classifies every unlaunched claim and lets a policy skip the classes that
// cannot cause that; a replacement of an open command is always waited on. Pure: the loop (shared/loop/
// sync-check.ts) reads the inputs and counts the verdict.
import { z } from 'zod';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { COMMAND_LABEL } from './replacement-claim.ts';

/** The fork's DisruptionSyncPolicy: which unlaunched claims a pass may run past. */
export const SYNC_POLICIES = ['Strict', 'IgnoreFailedOrDeferred', 'IgnoreNonReplacements'] as const;
export type SyncPolicy = (typeof SYNC_POLICIES)[number];
export const syncPolicySchema = z.enum(SYNC_POLICIES);

/** Classes of unlaunched claims, from the one no policy skips to the ones the narrowest looser policy skips. */
export const UNLAUNCHED_CLASSES = [
  'replacement',
  'in_flight',
  'launch_deferred',
  'launch_failed',
  'deleting',
] as const;
export type UnlaunchedClass = (typeof UNLAUNCHED_CLASSES)[number];

/** A check is labelled with the highest-ranked class present (the fork's unlaunchedClassRank). */
const RANK: Readonly<Record<UnlaunchedClass, number>> = {
  deleting: 1,
  launch_failed: 2,
  launch_deferred: 3,
  in_flight: 4,
  replacement: 5,
};

/** The Launched reason a launch error leaves when it carries none of its own (Karpenter's lifecycle launch). */
export const LAUNCH_FAILED_REASON = 'LaunchFailed';
/** Reasons that are not a launch attempt's: a condition's default (ours is its type; operatorpkg's). */
const NO_ATTEMPT_REASONS = new Set(['', 'Launched', 'AwaitingReconciliation', 'Unknown']);

/** Whether the policy lets a pass run past claims of the class (the fork's skippableUnder). */
export function skippableUnder(policy: SyncPolicy, cls: UnlaunchedClass): boolean {
  switch (cls) {
    case 'deleting':
    case 'launch_failed':
    case 'launch_deferred':
      return policy !== 'Strict';
    case 'in_flight':
      return policy === 'IgnoreNonReplacements';
    case 'replacement':
      return false;
  }
}

/** The reason a launch attempt left on the Launched condition, if it is not True and not a default. */
function launchAttemptReason(claim: NodeClaim): string | undefined {
  const launched = claim.status?.conditions?.find((c) => c.type === 'Launched');
  if (!launched || launched.status === 'True') return undefined;
  const reason = launched.reason ?? '';
  return NO_ATTEMPT_REASONS.has(reason) ? undefined : reason;
}

/**
 * The class of an unlaunched claim. Replacements first — named by an open command, or labelled as one by
 * admission before the store's view shows it: a deleting replacement still has a command waiting on it.
 */
export function classifyUnlaunched(claim: NodeClaim, replacements: ReadonlySet<string>): UnlaunchedClass {
  if (replacements.has(claim.metadata.name) || claim.metadata.labels?.[COMMAND_LABEL] !== undefined)
    return 'replacement';
  if (claim.metadata.deletionTimestamp !== undefined) return 'deleting';
  const reason = launchAttemptReason(claim);
  if (reason === LAUNCH_FAILED_REASON) return 'launch_failed';
  if (reason !== undefined) return 'launch_deferred';
  return 'in_flight';
}

export interface SyncVerdict {
  /** True when the pass may run. */
  readonly proceed: boolean;
  /** Undefined when no claim was unlaunched (strictly synced); else the highest-ranked class present. */
  readonly reason: UnlaunchedClass | undefined;
  /** Every unlaunched claim by class (what a wait is counted by). */
  readonly classes: ReadonlyMap<string, UnlaunchedClass>;
}

/** Unlaunched claims: NodeClaims without a providerID (Karpenter's Synced looks for exactly these). */
export const unlaunchedClaims = (snapshot: ClusterSnapshot): NodeClaim[] =>
  snapshot.objects.nodeClaims.filter((c) => !c.status?.providerID);

/** The fork's judgeUnlaunched: may a pass proceed past these claims under the policy? */
export function judgeSync(
  policy: SyncPolicy,
  unlaunched: readonly NodeClaim[],
  replacements: ReadonlySet<string>,
): SyncVerdict {
  let proceed = true;
  let reason: UnlaunchedClass | undefined;
  const classes = new Map<string, UnlaunchedClass>();
  for (const claim of unlaunched) {
    const cls = classifyUnlaunched(claim, replacements);
    classes.set(claim.metadata.name, cls);
    if (!skippableUnder(policy, cls)) proceed = false;
    if (reason === undefined || RANK[cls] > RANK[reason]) reason = cls;
  }
  return { proceed, reason, classes };
}

/**
 * The snapshot a pass that proceeded past unlaunched claims runs on: without them. In Karpenter a claim with no
 * providerID is not a node of cluster state, so the simulation never counts on its room; the pods bound for it
 * are pending, as any pod the provisioner has not launched capacity for yet.
 */
export function withoutUnlaunched(snapshot: ClusterSnapshot, verdict: SyncVerdict): ClusterSnapshot {
  if (verdict.classes.size === 0) return snapshot;
  const inFlight = snapshot.inFlight.filter((n) => !verdict.classes.has(n.name));
  return inFlight.length === snapshot.inFlight.length ? snapshot : { ...snapshot, inFlight };
}
