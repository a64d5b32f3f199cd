// Cross-cloud gang failover, the decision (docs/mechanisms/gangs.md#cross-cloud-failover): a gang launch refused
// for capacity on one cloud is placed again whole on another cloud its requirements admit, for as long as
// Karpenter's ICE cache remembers the refusal; a gang no other cloud admits, or that no other cloud can take now,
// is reported failed. Generic on "a gang launch": any unit of pods that launched as one (a Volcano or Workload
// gang, an atomic ProvisioningRequest) is keyed by the caller's `unitOf`.
import { CLOUD, CLOUDS, type Cloud } from '../model/labels.ts';
import { podKey, type Pod } from '../model/pod.ts';

/**
 * How long a gang's capacity refusal keeps it off the refusing cloud: Karpenter's UnavailableOfferingsTTL
 * (3 minutes, karpenter-provider-aws pkg/cache/cache.go, used by pkg/cache/unavailableofferings.go), the same
 * window the refused offerings stay in the ICE cache.
 */
export const GANG_REFUSAL_TTL_MS = 3 * 60_000;

/** What a launch record says about a unit's last launch, as far as failover cares. */
export interface LastLaunch {
  readonly cloud: Cloud;
  readonly status: 'pending' | 'launched' | 'failed';
  readonly error?: string;
  readonly updatedAt: Date;
}

/** A unit whose last launch the cloud refused for capacity, recently enough to keep it off that cloud. */
export interface RefusedUnit {
  readonly unit: string;
  readonly from: Cloud;
  readonly members: readonly Pod[];
}

/** The capacity refusal a failed launch record stands for: the launcher writes `InsufficientCapacityError: …`. */
export function refusedFor(last: LastLaunch | undefined, now: Date): Cloud | undefined {
  if (last?.status !== 'failed' || !last.error?.startsWith('InsufficientCapacityError')) return undefined;
  return now.getTime() - last.updatedAt.getTime() < GANG_REFUSAL_TTL_MS ? last.cloud : undefined;
}

/**
 * The claim each unit's members last waited on, when it is gone (the launcher deletes refused claims): one
 * claim per unit is enough, since a unit's claims launch and fail together.
 */
export function voidClaimsByUnit(
  pods: readonly Pod[],
  unitOf: (p: Pod) => string | undefined,
  lastClaimOf: (p: Pod) => string | undefined,
  claimExists: (name: string) => boolean,
): Map<string, { claim: string; members: Pod[] }> {
  const out = new Map<string, { claim: string; members: Pod[] }>();
  for (const p of pods) {
    const unit = unitOf(p);
    if (!unit) continue;
    const entry = out.get(unit);
    if (entry) {
      entry.members.push(p);
      continue;
    }
    const claim = lastClaimOf(p);
    out.set(unit, { claim: claim && !claimExists(claim) ? claim : '', members: [p] });
  }
  for (const [unit, e] of out) if (!e.claim) out.delete(unit);
  return out;
}

/** The clouds other than `from` (two today): where a refused unit may go. */
export const otherClouds = (from: Cloud): Cloud[] => CLOUDS.filter((c) => c !== from);

/**
 * The pod with a required node affinity that keeps it off `from` (`kraftsman.dev/cloud NotIn [from]`), added to
 * every term (terms are ORed, so each must carry it) or as the only term. The caller's pod is not changed.
 */
export function offCloud(pod: Pod, from: Cloud): Pod {
  const expr = { key: CLOUD, operator: 'NotIn' as const, values: [from] };
  const affinity = pod.spec.affinity ?? {};
  const required = affinity.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required?.nodeSelectorTerms.length
    ? required.nodeSelectorTerms.map((t) => ({
        ...t,
        matchExpressions: [...(t.matchExpressions ?? []), expr],
      }))
    : [{ matchExpressions: [expr] }];
  return {
    ...pod,
    spec: {
      ...pod.spec,
      affinity: {
        ...affinity,
        nodeAffinity: {
          ...affinity.nodeAffinity,
          requiredDuringSchedulingIgnoredDuringExecution: { ...required, nodeSelectorTerms: terms },
        },
      },
    },
  };
}

/** What became of one refused unit in the batch that placed it again. */
export type FailoverOutcome =
  | { readonly kind: 'moved'; readonly unit: string; readonly from: Cloud; readonly to: Cloud }
  /** No NodePool of another cloud admits every member: the unit stays on its cloud's remaining offerings. */
  | {
      readonly kind: 'pinned';
      readonly unit: string;
      readonly from: Cloud;
      readonly others: readonly Cloud[];
    }
  /** Another cloud admits it but could not take it now (its offerings refused too, or its limits). */
  | {
      readonly kind: 'exhausted';
      readonly unit: string;
      readonly from: Cloud;
      readonly others: readonly Cloud[];
      readonly why: string;
    };

/**
 * The outcome of each refused unit: `movable` units were placed confined off their refusing cloud; a placed
 * unit moved to the cloud of its members' new claims, an unplaced one is exhausted (with the scheduler's reason).
 */
export function failoverOutcomes(
  refused: readonly RefusedUnit[],
  movable: ReadonlySet<string>,
  cloudOfPlacement: (podKey: string) => Cloud | undefined,
  errorOf: (podKey: string) => string | undefined,
): FailoverOutcome[] {
  return refused.map((r): FailoverOutcome => {
    const others = otherClouds(r.from);
    if (!movable.has(r.unit)) return { kind: 'pinned', unit: r.unit, from: r.from, others };
    const keys = r.members.map(podKey);
    const to = keys.map(cloudOfPlacement).find((c) => c !== undefined);
    if (to) return { kind: 'moved', unit: r.unit, from: r.from, to };
    const why = keys.map(errorOf).find((e) => e !== undefined) ?? 'no capacity';
    return { kind: 'exhausted', unit: r.unit, from: r.from, others, why };
  });
}
