// Booked ProvisioningRequests (docs/mechanisms/provisioning-requests.md, "Booking"): for the reservation time after
// Provisioned=True a request's pods hold capacity — Cluster Autoscaler's BookCapacity schedules them onto the
// cluster snapshot as if they ran — so no other pending pod takes it and no consolidation removes it. Pure.
import { CONSUME_REQUEST, type ProvisioningRequest } from '../model/provisioning-request.ts';
import { podKey, type Pod } from '../model/pod.ts';
import { addInto, EMPTY, type MutableResourceList } from '../model/resources.ts';
import { podRequests } from '../scheduling/pod-requests.ts';
import { solve } from '../scheduling/scheduler.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { isActive } from '../state/pods.ts';
import { MissingPodTemplateError, requestKey, requestPods, templatesByKey } from '../state/request-pods.ts';
import { toPendingPod } from '../state/scheduling-inputs.ts';
import { passView } from '../state/scheduling-view.ts';
import type { ClusterSnapshot, StateNode } from '../state/snapshot.ts';
import { requestStep } from './request-status.ts';
import { byAge } from './requests.ts';
import { schedulingOptions } from './simulate.ts';

/** A request inside its booking, and the pods of it that still hold capacity. */
export interface Booking {
  readonly request: ProvisioningRequest;
  readonly key: string;
  readonly until: Date;
  /** Its pods that no real consuming pod stands for yet (those real pods take the capacity themselves). */
  readonly pods: readonly Pod[];
}

/** Pods alive that consume `pr` (the annotation Kueue writes on a job's pods: ProvisioningRequestPodAnnotationKey). */
export const consumersOf = (pr: ProvisioningRequest, pods: readonly Pod[]): number =>
  pods.filter(
    (p) =>
      isActive(p) &&
      (p.metadata.namespace ?? 'default') === (pr.metadata.namespace ?? 'default') &&
      p.metadata.annotations?.[CONSUME_REQUEST] === pr.metadata.name,
  ).length;

/**
 * Every request booked now (requestStep: Provisioned=True less than the reservation time ago and not
 * BookingExpired), oldest first. A request whose PodTemplate went missing holds nothing (its pods cannot be made).
 */
export function bookings(objects: ClusterObjects, now: Date): Booking[] {
  const templates = templatesByKey(objects.podTemplates);
  const out: Booking[] = [];
  for (const pr of [...objects.provisioningRequests].sort(byAge)) {
    const step = requestStep(pr, now);
    if (step.kind !== 'booked') continue;
    let pods: Pod[];
    try {
      pods = requestPods(pr, templates);
    } catch (err: unknown) {
      if (err instanceof MissingPodTemplateError) continue;
      throw err;
    }
    // each real consuming pod stands for one of the request's pods: it is demand (or bound) itself
    const held = pods.slice(consumersOf(pr, objects.pods));
    if (held.length > 0) out.push({ request: pr, key: requestKey(pr), until: step.until, pods: held });
  }
  return out;
}

export interface Held {
  /** The snapshot with every booked pod bound where it fits (existing nodes and in-flight claims only). */
  readonly snapshot: ClusterSnapshot;
  /** Node (or in-flight claim) name → the requests whose booked pods sit there. */
  readonly nodes: ReadonlyMap<string, readonly string[]>;
}

/**
 * Places the booked pods on the capacity the cluster has (no NodePool: a booking never opens a claim) and binds
 * them there, as Cluster Autoscaler's BookCapacity does on its snapshot. A booked pod that no longer fits (its
 * node went away) holds nothing: the booking is best effort, as CA's is.
 */
export function holdBookings(snapshot: ClusterSnapshot, booked: readonly Booking[]): Held {
  if (booked.length === 0) return { snapshot, nodes: new Map() };
  const view = passView(snapshot);
  const requests = new Map<string, ReturnType<typeof podRequests>>();
  const owner = new Map<string, string>();
  const pods = new Map<string, Pod>();
  for (const b of booked)
    for (const p of b.pods) {
      const key = podKey(p);
      requests.set(key, podRequests(p.spec));
      owner.set(key, b.key);
      pods.set(key, p);
    }
  const pending = [...pods.values()].map((p) =>
    toPendingPod(p, requests.get(podKey(p)) ?? EMPTY, view.volumes, new Map()),
  );
  const result = solve({ ...view.input(pending), templates: [] }, schedulingOptions(view, false));
  const byNode = new Map<string, Pod[]>();
  for (const [key, placement] of result.placements) {
    const pod = pods.get(key);
    if (placement.kind !== 'existing' || !pod) continue;
    byNode.set(placement.node, [
      ...(byNode.get(placement.node) ?? []),
      { ...pod, spec: { ...pod.spec, nodeName: placement.node } },
    ]);
  }
  const bind = (n: StateNode): StateNode => {
    const add = byNode.get(n.name);
    if (!add) return n;
    const sum: MutableResourceList = { ...n.podRequests };
    for (const p of add) addInto(sum, requests.get(podKey(p)) ?? EMPTY);
    return { ...n, pods: [...n.pods, ...add], podRequests: sum };
  };
  const nodes = new Map<string, string[]>();
  for (const [node, add] of byNode) nodes.set(node, [...new Set(add.map((p) => owner.get(podKey(p)) ?? ''))]);
  return {
    snapshot: {
      ...snapshot,
      nodes: snapshot.nodes.map(bind),
      inFlight: snapshot.inFlight.map(bind),
      podRequests: new Map([...snapshot.podRequests, ...requests]),
    },
    nodes,
  };
}

/** The annotation on each claim an atomic request opened, naming it (`namespace/name`): its capacity and its memory. */
export const REQUEST_ANNOTATION = 'kraftsman.dev/provisioning-request';

/**
 * Nodes holding booked capacity, which no voluntary disruption takes while the booking lasts (skip reason
 * `provisioning-request`): where the booked pods sit, and the nodes of the claims a booked atomic request opened
 * (CA's scale-down sees the booked pods on them and keeps them).
 */
export function bookedNodes(snapshot: ClusterSnapshot, now: Date): ReadonlySet<string> {
  const booked = bookings(snapshot.objects, now);
  if (booked.length === 0) return new Set();
  const out = new Set(holdBookings(snapshot, booked).nodes.keys());
  const keys = new Set(booked.map((b) => b.key));
  for (const n of snapshot.nodes) {
    const owner = n.claim?.metadata.annotations?.[REQUEST_ANNOTATION];
    if (owner && keys.has(owner)) out.add(n.name);
  }
  return out;
}
