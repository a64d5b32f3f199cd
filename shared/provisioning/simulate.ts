// One provisioning simulation over a snapshot: which unbound pods are demand, where each would go, and the
// NodeClaims that would be created (docs/contract.md, `kraftsman simulate`).
import { CAPACITY_TYPE, ZONE, type CapacityType, type Cloud } from '../model/labels.ts';
import { podKey } from '../model/pod.ts';
import { cheapestOffering, orderByPrice } from '../scheduling/instance-type.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import type { Operator } from '../scheduling/requirement.ts';
import { solve, type SchedulingOptions } from '../scheduling/scheduler.ts';
import { pendingIgnoreReason } from '../state/pods.ts';
import { passView, type PassView } from '../state/scheduling-view.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { answerRequest, byAge, type RequestOutcome } from './requests.ts';

export interface ProvisioningOptions {
  /**
   * Karpenter's behaviour: every kraftsman difference off
   * (docs/architecture.md#where-kraftsman-deliberately-differs-from-karpenter).
   */
  readonly upstream: boolean;
}

export type PodOutcome =
  | { readonly pod: string; readonly result: 'existing'; readonly node: string }
  | { readonly pod: string; readonly result: 'new'; readonly nodeClaim: string }
  | { readonly pod: string; readonly result: 'unschedulable'; readonly reason: string }
  | { readonly pod: string; readonly result: 'ignored'; readonly reason: string };

/** One requirement of a claim as the contract prints it (minValues dropped). */
export interface ClaimRequirement {
  readonly key: string;
  operator: Operator;
  values: string[];
}

export interface ClaimOutcome {
  readonly name: string;
  readonly nodePool: string;
  readonly cloud: Cloud;
  readonly instanceTypes: readonly string[];
  readonly cheapest:
    | {
        readonly instanceType: string;
        readonly zone: string;
        readonly capacityType: CapacityType;
        readonly price: number;
      }
    | undefined;
  readonly requirements: readonly ClaimRequirement[];
  readonly pods: readonly string[];
  readonly gang: string | undefined;
}

export interface ProvisioningResult {
  readonly pods: readonly PodOutcome[];
  readonly nodeClaims: readonly ClaimOutcome[];
  /** One per ProvisioningRequest of the snapshot, oldest first; absent when it has none. */
  readonly provisioningRequests?: readonly RequestOutcome[];
}

export function schedulingOptions(view: PassView, upstream: boolean): SchedulingOptions {
  return {
    cheapestPoolAmongEqualWeights: !upstream,
    reachableDomainsOnly: !upstream,
    // PreferNoSchedule is soft: when any pool or node carries one, the last relaxation step tolerates them.
    toleratePreferNoSchedule: [...view.templates, ...view.snapshot.nodes].some((t) =>
      t.taints.some((x) => x.effect === 'PreferNoSchedule'),
    ),
    allowUndefined: view.allowUndefined,
  };
}

export function simulateProvisioning(
  snapshot: ClusterSnapshot,
  options: ProvisioningOptions,
): ProvisioningResult {
  const view = passView(snapshot);
  const outcomes = new Map<string, PodOutcome>();
  const pending = [];
  for (const pod of snapshot.objects.pods) {
    if (pod.spec.nodeName) continue;
    const key = podKey(pod);
    const reason = pendingIgnoreReason(pod, !options.upstream, view.volumes);
    if (reason) outcomes.set(key, { pod: key, result: 'ignored', reason });
    else pending.push(view.pendingPod(pod));
  }
  const result = solve(view.input(pending), schedulingOptions(view, options.upstream));
  const names = new Map<NewClaim, string>();
  result.claims.forEach((c, i) => names.set(c, `new-${i + 1}`));
  for (const p of pending) {
    const placement = result.placements.get(p.key);
    if (placement?.kind === 'existing')
      outcomes.set(p.key, { pod: p.key, result: 'existing', node: placement.node });
    else if (placement?.kind === 'new')
      outcomes.set(p.key, { pod: p.key, result: 'new', nodeClaim: names.get(placement.claim) as string });
    else
      outcomes.set(p.key, {
        pod: p.key,
        result: 'unschedulable',
        reason: result.errors.get(p.key) ?? 'not placed',
      });
  }
  const pods = snapshot.objects.pods
    .filter((p) => !p.spec.nodeName)
    .map((p) => outcomes.get(podKey(p)) as PodOutcome);
  const nodeClaims = result.claims.map((c) => describeClaim(c, names.get(c) as string));
  const requests = snapshot.objects.provisioningRequests;
  if (requests.length === 0) return { pods: dedupe(pods), nodeClaims };
  // After the pending pods, each request alone, as Cluster Autoscaler scales up for requests in iterations of
  // their own (docs/mechanisms/provisioning-requests.md); its claims are named on from the pods' claims.
  const provisioningRequests: RequestOutcome[] = [];
  for (const pr of [...requests].sort(byAge)) {
    const { outcome, claims } = answerRequest(
      pr,
      view,
      schedulingOptions(view, options.upstream),
      options.upstream,
    );
    const claimNames = claims.map((c) => {
      const name = `new-${nodeClaims.length + 1}`;
      nodeClaims.push(describeClaim(c, name));
      return name;
    });
    provisioningRequests.push({ ...outcome, nodeClaims: claimNames });
  }
  return { pods: dedupe(pods), nodeClaims, provisioningRequests };
}

export function describeClaim(c: NewClaim, name: string): ClaimOutcome {
  const types = orderByPrice(c.instanceTypes, c.requirements);
  const first = types[0];
  const offering = first ? cheapestOffering(first, c.requirements) : undefined;
  const requirements = c.requirements
    .toSelectors()
    .filter((r) => r.key !== 'kubernetes.io/hostname')
    .map(({ key, operator, values }) => ({ key, operator, values }));
  // docs/contract.md: a single-valued In on zone / capacity type whenever scheduling narrowed it (or only one offering fits).
  for (const key of [ZONE, CAPACITY_TYPE]) {
    const values = new Set<string>();
    for (const it of c.instanceTypes)
      for (const o of it.offerings)
        if (
          o.available &&
          c.requirements.get(ZONE).has(o.zone) &&
          c.requirements.get(CAPACITY_TYPE).has(o.capacityType)
        )
          values.add(key === ZONE ? o.zone : o.capacityType);
    const r = requirements.find((x) => x.key === key);
    if (values.size === 1 && r) {
      r.operator = 'In';
      r.values = [...values];
    }
  }
  return {
    name,
    nodePool: c.template.nodePool,
    cloud: c.template.cloud,
    instanceTypes: types.map((t) => t.name),
    cheapest:
      first && offering
        ? {
            instanceType: first.name,
            zone: offering.zone,
            capacityType: offering.capacityType,
            price: offering.price,
          }
        : undefined,
    requirements,
    pods: c.pods.map((p) => p.key),
    gang: c.pods.find((p) => p.info.gang)?.info.gang?.name,
  };
}

function dedupe(pods: PodOutcome[]): PodOutcome[] {
  const seen = new Set<string>();
  return pods.filter((p) => (seen.has(p.pod) ? false : (seen.add(p.pod), true)));
}
