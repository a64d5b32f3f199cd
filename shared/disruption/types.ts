// The disruption engine's values: candidates, commands (the decision is derived, never stored), replacements,
// skip reasons (the same labels the metrics use) and the pass options with their defaults (docs/README.md,
// one page per mechanism).
import type { Pod } from '../model/pod.ts';
import type { ClaimRequirement } from '../provisioning/simulate.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import type { NodePoolView, StateNode } from '../state/snapshot.ts';
import type { CapacityType, Cloud } from '../model/labels.ts';
import type { DisruptionReason } from '../model/nodepool.ts';
import type { GangTies } from './gangs.ts';
import type { SyncPolicy } from './sync-gate.ts';

/** The pass's disruption methods, in the order Karpenter runs them; commands and metrics use these names. */
export const METHOD_NAMES = [
  'emptiness',
  'drift',
  'multi-node-consolidation',
  'single-node-consolidation',
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

/** Why the pass considered a node and did not disrupt it (metric label `reason`). */
export const SKIP_REASONS = [
  /** An object about the node fails validation: untouchable until it parses (docs/mechanisms/identity.md). */
  'invalid-object',
  'not-initialized',
  'marked-for-deletion',
  'nominated',
  'nodepool-not-found',
  'expired',
  'do-not-disrupt',
  'pdb-blocked',
  'unknown-instance-type',
  'missing-labels',
  'consolidation-disabled',
  'when-empty-policy',
  'consolidate-after',
  'not-consolidatable',
  'budget-exhausted',
  'claimed-by-pending-command',
  'cached-negative',
  'timed-out',
  'below-threshold',
  'unschedulable-pods',
  'multiple-replacements-required',
  'no-cheaper-replacement',
  'spot-to-spot-disabled',
  'spot-to-spot-insufficient-types',
  /** Its last replacement failed to launch or initialize: no replace until the hold ends (docs/mechanisms/replacement-backoff.md). */
  'replacement-backoff',
  /**
   * It hosts a member of a running gang whose other nodes the command would leave, or drift cannot take them all
   * now (docs/mechanisms/gangs.md, "Disruption").
   */
  'gang',
  /**
   * It holds capacity a ProvisioningRequest booked, while the booking lasts
   * (docs/mechanisms/provisioning-requests.md, "Booking").
   */
  'provisioning-request',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface Skip {
  readonly node: string;
  readonly reason: SkipReason;
  /** The method whose filter or walk passed the node over; absent when Karpenter's candidate rules did. */
  readonly method?: MethodName;
}

export type DriftKind =
  'condition' | 'nodepool-hash' | 'requirements' | 'instance-type-gone' | 'nodeclass-hash';

/** Why and since when a candidate drifted; `reason` is Karpenter's word for it (drift-detect.ts). */
export interface Drift {
  readonly kind: DriftKind;
  readonly since: number;
  readonly reason: string;
}

export interface Candidate {
  readonly name: string;
  readonly node: StateNode;
  readonly pool: NodePoolView;
  readonly nodePool: string;
  readonly instanceType: InstanceType | undefined;
  readonly zone: string | undefined;
  /** Undefined when the node has no capacity-type label kraftsman knows (the method skips it: missing-labels). */
  readonly capacityType: CapacityType | undefined;
  /** Offering price at the node's zone and capacity type; 0 when unknown (Karpenter's resolveNodePrice). */
  readonly price: number;
  /** Active pods bound to the node, and those that would move (not DaemonSet, not static). */
  readonly pods: readonly Pod[];
  readonly reschedulable: readonly Pod[];
  /** Karpenter: rescheduling cost × lifetime remaining. */
  readonly disruptionCost: number;
  /** Karpenter: 1 + Σ max(0, eviction cost) over reschedulable pods; ≤ 1 means empty. */
  readonly rescheduleCost: number;
  readonly consolidatable: boolean;
  /** A pod-level block (do-not-disrupt pod, PDB): graceful methods skip it; drift ignores it when the claim has a terminationGracePeriod. */
  readonly podBlock: 'do-not-disrupt' | 'pdb-blocked' | undefined;
  readonly terminationGracePeriod: boolean;
  readonly drift: Drift | undefined;
  /** Running gangs it hosts members of, spread over other nodes too: those nodes leave with it or not at all. */
  readonly gang?: GangTies;
}

export const isEmpty = (c: Candidate): boolean => c.rescheduleCost <= 1;
export const savingsRatio = (c: Candidate): number => c.price / c.rescheduleCost;

export interface Replacement {
  readonly nodePool: string;
  readonly cloud: Cloud;
  readonly instanceTypes: readonly string[];
  /** 'unknown' when no offering of the replacement's types is available. */
  readonly capacityType: CapacityType | 'unknown';
  readonly zone: string;
  readonly price: number;
  readonly requirements: readonly ClaimRequirement[];
}

export interface Command {
  readonly method: MethodName;
  readonly reason: DisruptionReason;
  readonly candidates: readonly Candidate[];
  readonly replacements: readonly Replacement[];
}

export const DECISIONS = ['delete', 'replace'] as const;
export type Decision = (typeof DECISIONS)[number];
/** Derived, as Karpenter's Command.Decision(): replace iff there are replacements. */
export const decisionOf = (c: Command): Decision => (c.replacements.length > 0 ? 'replace' : 'delete');

export const savingsOf = (c: Command): number =>
  c.candidates.reduce((s, x) => s + x.price, 0) - c.replacements.reduce((s, r) => s + r.price, 0);

/** The work a walk reports as it goes: a pod tried (or a step followed) in a simulation, a candidate judged. */
export type WalkWork = 'simulation-step' | 'candidate';

/** Elapsed wall time since the pass began, injected so the core never reads a clock itself. */
export interface Stopwatch {
  elapsedMs(): number;
  /**
   * Told of the walk's work as it is done. A stopwatch on a simulated clock advances by its cost, so a budget
   * spent on it does not depend on the machine (the local fleet, docs/fleet.md "Time"); a wall-clock one ignores it.
   */
  work?(kind: WalkWork, count: number): void;
}

export interface PassOptions {
  /** Every kraftsman difference off (Karpenter's answer). */
  readonly upstream: boolean;
  /** Proposals one single-node walk may hold (1 = Karpenter). */
  readonly maxCommands: number;
  readonly spotToSpot: boolean;
  readonly spotToSpotMinTypes: number;
  /** ConsolidationAttributeReplacements (default on; off in upstream mode). */
  readonly attributeReplacements: boolean;
  readonly skipUnchangedNegatives: boolean;
  /** Leave backlog pods that no NodePool can take out of disruption simulations (docs/mechanisms/verdict-exclusion.md). */
  readonly excludeIncompatible: boolean;
  /** Simulate a candidate with only the backlog pods that could interact with its pods (beyond the fork). */
  readonly reduceBacklog: boolean;
  /** Solve the backlog once per pass and re-simulate only each candidate's delta where that is exact (beyond the fork). */
  readonly deltaSimulation: boolean;
  readonly multiNodeTimeoutMs: number;
  readonly singleNodeTimeoutMs: number;
  /** consolidation-candidate-timeout: one candidate's simulation budget (docs/mechanisms/candidate-budget.md). */
  readonly candidateTimeoutMs: number;
  /** How long a remembered no-op verdict is trusted: five minutes by default (docs/mechanisms/negative-cache.md). */
  readonly negativeCacheTtlMs: number;
  /** Which unlaunched NodeClaims a pass may run past (docs/mechanisms/sync-gate.md); `Strict` is Karpenter's. */
  readonly syncPolicy: SyncPolicy;
}

export const DEFAULT_OPTIONS: PassOptions = {
  upstream: false,
  maxCommands: 1,
  spotToSpot: false,
  spotToSpotMinTypes: 15,
  attributeReplacements: true,
  skipUnchangedNegatives: false,
  excludeIncompatible: true,
  reduceBacklog: true,
  deltaSimulation: true,
  multiNodeTimeoutMs: 60_000,
  singleNodeTimeoutMs: 180_000,
  candidateTimeoutMs: 10_000,
  negativeCacheTtlMs: 5 * 60_000,
  syncPolicy: 'Strict',
};

/** Options for a mode: upstream turns attribution off and holds one command per pass. */
export function passOptions(overrides: Partial<PassOptions>): PassOptions {
  const o = { ...DEFAULT_OPTIONS, ...overrides };
  return o.upstream
    ? {
        ...o,
        attributeReplacements: false,
        maxCommands: 1,
        skipUnchangedNegatives: false,
        excludeIncompatible: false,
        reduceBacklog: false,
        deltaSimulation: false,
        candidateTimeoutMs: Number.POSITIVE_INFINITY,
        syncPolicy: 'Strict',
      }
    : o;
}
