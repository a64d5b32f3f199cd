// ProvisioningRequests answered by a simulation (docs/mechanisms/provisioning-requests.md, docs/contract.md
// `simulate`): each request's pods (request-pods.ts) are solved as one gang of all of them, alone against the
// snapshot's nodes, in-flight claims and (for the atomic class) NodePools.
import { ATOMIC_SCALE_UP, CHECK_CAPACITY, type ProvisioningRequest } from '../model/provisioning-request.ts';
import type { Cloud } from '../model/labels.ts';
import { offCloud } from './gang-failover.ts';
import { podRequests } from '../scheduling/pod-requests.ts';
import type { PendingPod } from '../scheduling/pod-state.ts';
import { solve, type SchedulingOptions } from '../scheduling/scheduler.ts';
import { toPendingPod } from '../state/scheduling-inputs.ts';
import type { PassView } from '../state/scheduling-view.ts';
import { requestKey, requestPods, templatesByKey } from '../state/request-pods.ts';

export const REQUEST_RESULTS = ['provisioned', 'failed', 'ignored'] as const;
export type RequestResult = (typeof REQUEST_RESULTS)[number];

export interface RequestOutcome {
  readonly name: string;
  readonly class: string;
  readonly result: RequestResult;
  /** The claims opened for its pods (best-effort-atomic-scale-up only), named as simulate names claims. */
  readonly nodeClaims: readonly string[];
  readonly reason: string;
}

/** One request's answer and the claims its solve opened (empty unless it is an atomic request provisioned). */
export interface RequestAnswer {
  readonly outcome: Omit<RequestOutcome, 'nodeClaims'>;
  readonly claims: ReturnType<typeof solve>['claims'];
}

/**
 * Oldest first, then by namespace/name: the order Cluster Autoscaler's provisioning-request processors pick
 * requests in (the oldest waits longest).
 */
export const byAge = (a: ProvisioningRequest, b: ProvisioningRequest): number =>
  (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
  requestKey(a).localeCompare(requestKey(b));

/**
 * One request, alone: `check-capacity` may use only the existing nodes and in-flight claims (no NodePool, so no
 * claim is opened) and is provisioned when every pod fits; `best-effort-atomic-scale-up` may open claims and is
 * provisioned when every pod is placed, else no claim is kept (the gang's rollback). Another class is left alone
 * (Cluster Autoscaler's processors each take only their class). Upstream Karpenter reads no requests at all.
 */
export function answerRequest(
  pr: ProvisioningRequest,
  view: PassView,
  options: SchedulingOptions,
  upstream: boolean,
  /** Keep every pod off this cloud: it refused the request's last launch for capacity (gang-failover.ts). */
  avoid?: Cloud,
): RequestAnswer {
  const name = requestKey(pr);
  const cls = pr.spec.provisioningClassName;
  const answer = (result: RequestResult, reason: string, claims: RequestAnswer['claims'] = []) => ({
    outcome: { name, class: cls, result, reason },
    claims,
  });
  if (upstream) return answer('ignored', 'upstream: Karpenter reads no ProvisioningRequests');
  if (cls !== CHECK_CAPACITY && cls !== ATOMIC_SCALE_UP)
    return answer(
      'ignored',
      `class ${cls} is not one kraftsman provisions (${CHECK_CAPACITY}, ${ATOMIC_SCALE_UP})`,
    );
  const made = requestPods(pr, templatesByKey(view.snapshot.objects.podTemplates));
  const pods = avoid ? made.map((p) => offCloud(p, avoid)) : made;
  // every pod of the request or none: one gang whose minimum is all of them (any gang of the template is overridden)
  const gang = {
    name: `${pr.metadata.namespace ?? 'default'}/provisioningrequest:${pr.metadata.name}`,
    minMember: pods.length,
  };
  const pending: PendingPod[] = pods.map((p) => ({
    ...toPendingPod(p, podRequests(p.spec), view.volumes, new Map()),
    gang,
  }));
  const input = view.input(pending);
  const checkOnly = cls === CHECK_CAPACITY;
  const result = solve(checkOnly ? { ...input, templates: [] } : input, options);
  const unplaced = pending.filter((p) => !result.placements.has(p.key));
  const firstError = unplaced.map((p) => result.errors.get(p.key)).find((e) => e !== undefined);
  if (unplaced.length > 0) {
    const why = firstError ?? 'not placed';
    return answer(
      'failed',
      checkOnly
        ? `CapacityIsNotFound: the ${pods.length} pods do not all fit the existing nodes and in-flight claims: ${why}`
        : `the ${pods.length} pods cannot all be placed, so none is: ${why}`,
    );
  }
  if (checkOnly)
    return answer(
      'provisioned',
      `CapacityIsFound: all ${pods.length} pods fit the existing nodes and in-flight claims`,
    );
  const onExisting = pending.filter((p) => result.placements.get(p.key)?.kind === 'existing').length;
  return answer(
    'provisioned',
    `all ${pods.length} pods placed: ${onExisting} on existing capacity, ${pods.length - onExisting} on ${result.claims.length} new claim${result.claims.length === 1 ? '' : 's'}`,
    result.claims,
  );
}
