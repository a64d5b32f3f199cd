// The provision function's answer to ProvisioningRequests (docs/mechanisms/provisioning-requests.md, "In the loop"):
// after each batch of ordinary pending pods, every request that needs an answer is answered, oldest first, on the
// capacity the cluster has with the earlier bookings held; its conditions are written as Cluster Autoscaler writes them.
import type { Cloud } from '../model/labels.ts';
import { ATOMIC_SCALE_UP, CHECK_CAPACITY, type ProvisioningRequest } from '../model/provisioning-request.ts';
import { buildInstanceTypes } from '../scheduling/instance-type.ts';
import { batchCapacity } from '../provisioning/in-flight.ts';
import { pendingDemand } from '../provisioning/demand.ts';
import { withoutRefused } from '../provisioning/offerings.ts';
import {
  bookings,
  consumersOf,
  holdBookings,
  REQUEST_ANNOTATION,
  type Booking,
} from '../provisioning/request-booking.ts';
import {
  answerCondition,
  requestStep,
  withCondition,
  type RequestCondition,
} from '../provisioning/request-status.ts';
import { answerRequest, byAge } from '../provisioning/requests.ts';
import { CLAIMS_DETAIL, claimsDetail, claimsGone, recordedClaims } from '../provisioning/request-claims.ts';
import { schedulingOptions } from '../provisioning/simulate.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { MissingPodTemplateError, requestKey, requestPods, templatesByKey } from '../state/request-pods.ts';
import { passView } from '../state/scheduling-view.ts';
import { buildSnapshot, type ClusterSnapshot } from '../state/snapshot.ts';
import { ConflictError } from '../ports/cluster/errors.ts';
import type { ClusterEvent } from '../ports/cluster/index.ts';
import type { Fence } from '../ports/state-store/records.ts';
import { publishEvents } from './events.ts';
import { leavingOf } from './leaving-pods.ts';
import { poolSpecs } from './pool-instance-types.ts';
import type { BatchDeps, BatchSettings } from './provision-batch.ts';
import { launchRequest } from './request-launch.ts';
import { refusalOf, type Refusal } from './request-refusals.ts';

/**
 * processors/provreq/injector.go defaultRetryTime: a request answered Provisioned=False is answered again once this
 * long has passed since (CA's injector picks such a request up again on a later loop; kraftsman waits this long so
 * that a request that cannot fit is not re-answered and re-patched on every batch).
 */
export const RETRY_MS = 60_000;

export interface RequestTotals {
  readonly answered: number;
  readonly claimsCreated: number;
  readonly launchesInvoked: number;
}

const NONE: RequestTotals = { answered: 0, claimsCreated: 0, launchesInvoked: 0 };
const answered = (pr: ProvisioningRequest) =>
  pr.spec.provisioningClassName === CHECK_CAPACITY || pr.spec.provisioningClassName === ATOMIC_SCALE_UP;

/**
 * The requests that need this pass: a condition to write (booking over, expired), an answer (never answered, or
 * Provisioned=False for RETRY_MS), or — once per container (`evented`) — the event saying another class is left alone.
 */
export function requestsDue(objects: ClusterObjects, now: Date, evented: ReadonlySet<string>): string[] {
  return objects.provisioningRequests
    .filter((pr) => {
      if (!answered(pr)) return !evented.has(requestKey(pr));
      const step = requestStep(pr, now);
      if (step.kind === 'booked') return claimsGone(pr, objects) !== undefined;
      return step.kind === 'write' || (step.kind === 'answer' && !retryWaits(pr, now));
    })
    .map(requestKey);
}

function retryWaits(pr: ProvisioningRequest, now: Date): boolean {
  const c = (pr.status?.conditions ?? []).find((x) => x.type === 'Provisioned' && x.status === 'False');
  const at = Date.parse(c?.lastTransitionTime ?? '');
  return !Number.isNaN(at) && now.getTime() - at < RETRY_MS;
}

/** The snapshot a batch schedules on (provision-batch.ts): in-flight claims counted, leaving nodes taking nothing. */
async function batchSnapshot(deps: BatchDeps, cluster: string, objects: ClusterObjects, now: Date) {
  const state = await deps.store.loadPassState(cluster);
  const leaving = leavingOf(objects, state, now);
  const demand = pendingDemand(objects, state.nominations, now, true, leaving);
  const offered = withoutRefused(
    await poolSpecs(deps.instanceTypes, objects),
    state.unavailableOfferings,
    now,
  );
  return batchCapacity(buildSnapshot(objects, buildInstanceTypes(offered), { poolReadiness: true }), demand);
}

/** Answers every request due, oldest first; `evented` remembers the other-class requests already reported. */
export async function answerRequests(
  deps: BatchDeps,
  settings: BatchSettings,
  fence: Fence,
  evented: Set<string>,
): Promise<RequestTotals> {
  // Upstream Karpenter reads no ProvisioningRequests.
  if (settings.upstream) return NONE;
  const objects = (await deps.cluster.readSnapshot()).objects;
  const now = deps.clock.now();
  if (requestsDue(objects, now, evented).length === 0) return NONE;
  const snapshot = await batchSnapshot(deps, fence.cluster, objects, now);
  const booked: Booking[] = bookings(objects, now);
  const events: ClusterEvent[] = [];
  let totals = NONE;
  for (const pr of [...objects.provisioningRequests].sort(byAge)) {
    const key = requestKey(pr);
    if (!answered(pr)) {
      if (!evented.has(key)) events.push(ignoredEvent(pr));
      evented.add(key);
      continue;
    }
    const step = requestStep(pr, now);
    if (step.kind === 'write') {
      await patch(deps, pr, [step.condition]);
      continue;
    }
    let refused: Refusal | undefined;
    if (step.kind === 'booked') {
      const gone = claimsGone(pr, objects);
      if (!gone) continue;
      refused = await refusalOf(deps.store, fence.cluster, gone, now);
      // gone without a failed launch (deleted by hand): nothing to answer again, and nothing more to watch
      if (!refused) {
        await patch(deps, pr, [], { [CLAIMS_DETAIL]: null });
        continue;
      }
      events.push(refusedEvent(pr, refused));
    } else if (step.kind !== 'answer' || retryWaits(pr, now)) continue;
    const r = await answerOne(deps, fence, snapshot, booked, pr, now, refused?.avoid);
    events.push(r.event);
    if (r.booking) booked.push(r.booking);
    totals = {
      answered: totals.answered + 1,
      claimsCreated: totals.claimsCreated + r.claims,
      launchesInvoked: totals.launchesInvoked + r.launches,
    };
  }
  await publishEvents(deps, events);
  return totals;
}

interface One {
  readonly event: ClusterEvent;
  readonly booking: Booking | undefined;
  readonly claims: number;
  readonly launches: number;
}

/**
 * One request: Accepted=True and the class's answer (request-status.ts answerCondition) in one patch. An atomic
 * request whose claims exist already (a pass that died before its patch) is provisioned without a second launch.
 */
async function answerOne(
  deps: BatchDeps,
  fence: Fence,
  snapshot: ClusterSnapshot,
  booked: readonly Booking[],
  pr: ProvisioningRequest,
  now: Date,
  avoid?: Cloud,
): Promise<One> {
  const key = requestKey(pr);
  const accepted = cond(
    pr,
    'Accepted',
    'True',
    'Accepted',
    'ProvisioningRequest is accepted by ClusterAutoscaler',
    now,
  );
  const opened = snapshot.objects.nodeClaims.filter(
    (c) => c.metadata.annotations?.[REQUEST_ANNOTATION] === key,
  );
  if (pr.spec.provisioningClassName === ATOMIC_SCALE_UP && opened.length > 0) {
    const c = cond(
      pr,
      'Provisioned',
      'True',
      'CapacityIsProvisioned',
      'Capacity is found in the cluster',
      now,
    );
    await patch(deps, pr, [accepted, c], claimsDetail(opened.map((o) => o.metadata.name)));
    return {
      event: event(pr, c, `its ${opened.length} claims exist already`),
      booking: undefined,
      claims: 0,
      launches: 0,
    };
  }
  let answer: ReturnType<typeof answerRequest>;
  const held = holdBookings(snapshot, booked);
  const view = passView(held.snapshot);
  try {
    const options = schedulingOptions(view, false);
    // refused on a cloud: whole on another first (gangs.md, "Cross-cloud failover"), else where offerings remain
    answer = answerRequest(pr, view, options, false, avoid);
    if (avoid && answer.outcome.result !== 'provisioned') answer = answerRequest(pr, view, options, false);
  } catch (err: unknown) {
    if (!(err instanceof MissingPodTemplateError)) throw err;
    // injector.go: pods that cannot be made fail the request (FailedToCreatePods)
    const c = cond(pr, 'Failed', 'True', 'FailedToCreatePods', err.message, now);
    await patch(deps, pr, [c]);
    return { event: event(pr, c), booking: undefined, claims: 0, launches: 0 };
  }
  let launched = { names: [] as readonly string[], launches: 0 };
  if (answer.outcome.result === 'provisioned' && answer.claims.length > 0)
    launched = await launchRequest(deps, fence, held.snapshot, key, answer.claims);
  const c = answerCondition(pr, { ...answer.outcome, newClaims: launched.names.length }, now);
  if (!c) throw new Error(`ProvisioningRequest ${key}: a class it answers gave no condition`);
  const details = launched.names.length
    ? claimsDetail(launched.names)
    : recordedClaims(pr).length
      ? { [CLAIMS_DETAIL]: null }
      : undefined;
  await patch(deps, pr, [accepted, c], details);
  // Provisioned on existing capacity: its pods hold that capacity against the next requests of this pass too.
  const pods =
    c.status === 'True' && launched.names.length === 0
      ? requestPods(pr, templatesByKey(snapshot.objects.podTemplates))
      : [];
  const held2 = pods.slice(consumersOf(pr, snapshot.objects.pods));
  return {
    event: event(pr, c, answer.outcome.reason),
    booking: held2.length ? { request: pr, key, until: now, pods: held2 } : undefined,
    claims: launched.names.length,
    launches: launched.launches,
  };
}

/**
 * Writes the conditions into the request's list (AddOrUpdateCondition), pinned to the version read; `details` are
 * merged into status.provisioningClassDetails (null removes one).
 */
async function patch(
  deps: BatchDeps,
  pr: ProvisioningRequest,
  conditions: readonly RequestCondition[],
  details?: Readonly<Record<string, string | null>>,
) {
  let list: readonly { readonly type: string }[] = pr.status?.conditions ?? [];
  for (const c of conditions) list = withCondition(list, c);
  const request = { namespace: pr.metadata.namespace ?? 'default', name: pr.metadata.name };
  try {
    await deps.cluster.patchRequestStatus(request, pr.metadata.resourceVersion ?? '', {
      conditions: list,
      ...(details ? { provisioningClassDetails: details } : {}),
    });
    deps.logger.info('ProvisioningRequest status', {
      request: requestKey(pr),
      conditions: conditions.map((c) => `${c.type}=${c.status} ${c.reason}`).join(', '),
    });
  } catch (err: unknown) {
    // Someone wrote it since the read: the next pass reads it again and answers it if it still needs one.
    if (!(err instanceof ConflictError)) throw err;
    deps.logger.warn('ProvisioningRequest changed since it was read; answered again next pass', {
      request: requestKey(pr),
    });
  }
}

function cond(
  pr: ProvisioningRequest,
  type: RequestCondition['type'],
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: Date,
): RequestCondition {
  const g = pr.metadata.generation;
  return {
    type,
    status,
    reason,
    message: message.slice(0, 32768),
    lastTransitionTime: now.toISOString(),
    ...(g !== undefined ? { observedGeneration: g } : {}),
  };
}

const involved = (pr: ProvisioningRequest): ClusterEvent['involved'] => ({
  kind: 'ProvisioningRequest',
  name: pr.metadata.name,
  namespace: pr.metadata.namespace ?? 'default',
  ...(pr.metadata.uid ? { uid: pr.metadata.uid } : {}),
});

/** Normal for a provisioned request, Warning otherwise; the reason is the condition's. */
const event = (pr: ProvisioningRequest, c: RequestCondition, detail?: string): ClusterEvent => ({
  involved: involved(pr),
  type: c.type === 'Provisioned' && c.status === 'True' ? 'Normal' : 'Warning',
  reason: c.reason,
  message: `${c.type}=${c.status}: ${detail ?? c.message}`.slice(0, 1024),
});

/** The capacity an atomic request was given is gone: a cloud refused its launch, so it is answered again. */
const refusedEvent = (pr: ProvisioningRequest, r: Refusal): ClusterEvent => ({
  involved: involved(pr),
  type: 'Warning',
  reason: 'CapacityRefused',
  message: `its claims were refused (${r.error.slice(0, 300)}): answered again${r.avoid ? `, off ${r.avoid} first` : ''}`,
});

const ignoredEvent = (pr: ProvisioningRequest): ClusterEvent => ({
  involved: involved(pr),
  type: 'Normal',
  reason: 'ProvisioningClassNotSupported',
  message: `Provisioning class ${pr.spec.provisioningClassName} is not one kraftsman answers (${CHECK_CAPACITY}, ${ATOMIC_SCALE_UP}); left alone`,
});
