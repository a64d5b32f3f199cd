// The fleet's cost floor for the report and summary (docs/fleet.md, "What the summary counts"): the running pods
// taken off their nodes and packed afresh onto what the NodePools may launch, two ways — the LP relaxation (a
// true lower bound: lower-bound.ts assignmentBound over pod-classes.ts) and the product's own scheduler
// provisioning them onto an empty cluster (an integer packing any consolidator could at best approach).
import type { KubeApiEmulator } from '../../kube-api/index.ts';
import type { InstanceTypeCatalog } from '../../../shared/model/catalog.ts';
import type { Pod } from '../../../shared/model/pod.ts';
import { simulateProvisioning } from '../../../shared/provisioning/simulate.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import type { ClusterObjects } from '../../../shared/state/objects.ts';
import { isActive, isOwnedByDaemonSet } from '../../../shared/state/pods.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { passView } from '../../../shared/state/scheduling-view.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { assignmentBound } from './lower-bound.ts';
import { podClasses } from './pod-classes.ts';

export interface FleetBound {
  /** The LP relaxation's optimum, $/hour. */
  readonly lpPerHour: number;
  /** The scheduler's fresh packing: the cheapest offering of every claim it would create, $/hour. */
  readonly packingPerHour: number;
  readonly classes: number;
  /** Running pods no NodePool option admits, left out of both. */
  readonly unserved: readonly string[];
  /** Running pods the fresh packing left unplaced (topology it could not meet on an empty cluster). */
  readonly unplaced: number;
}

const KINDS: readonly [string, string?][] = [
  ['Namespace'],
  ['NodePool'],
  ['EC2NodeClass'],
  ['GCENodeClass'],
  ['DaemonSet'],
  ['Pod'],
  ['PodGroup', 'scheduling.volcano.sh/v1beta1'],
];

/** The emulator's objects that decide placement, as typed ClusterObjects (validated like any CLI input). */
export function emulatorObjects(emulator: KubeApiEmulator): ClusterObjects {
  const docs = KINDS.flatMap(([k, v]) =>
    emulator.store.all(emulator.typeOf(k, v)).map((value) => ({ source: 'fleet', value })),
  );
  return recognize(docs).objects;
}

/** A running pod as a pending one: unbound, its status reset, everything else as it was. */
const unbound = (p: Pod): Pod => {
  const spec = { ...p.spec };
  delete spec.nodeName;
  return { ...p, spec, status: { phase: 'Pending' } };
};

/**
 * Above this many running pods the floor is not computed: the fresh packing is a whole provisioning solve and
 * the LP a dense tableau, minutes of CPU on the 1,000-node ramp (the summary then keeps the divisible bound).
 */
export const FLOOR_MAX_PODS = 3000;

/** The running pods unbound onto an empty cluster of the same NodePools: what both floors pack afresh. */
function freshSnapshot(objects: ClusterObjects, catalog: InstanceTypeCatalog) {
  const running = objects.pods.filter((p) => p.spec.nodeName && isActive(p) && !isOwnedByDaemonSet(p));
  if (running.length > FLOOR_MAX_PODS) return undefined;
  const fresh: ClusterObjects = { ...objects, nodes: [], nodeClaims: [], pods: running.map(unbound) };
  return buildSnapshot(fresh, buildInstanceTypes(catalog.instanceTypes));
}

export type LpBound = Pick<FleetBound, 'lpPerHour' | 'classes' | 'unserved'>;

function lpOf(snapshot: NonNullable<ReturnType<typeof freshSnapshot>>): LpBound {
  const { classes, options, unserved } = podClasses(passView(snapshot));
  return { lpPerHour: assignmentBound(classes, options), classes: classes.length, unserved };
}

/**
 * The pool-aware LP bound alone: the one figure both the per-minute chart line (observe.ts) and the summary's
 * end bound come from (docs/fleet.md, "What the summary counts"). Undefined above FLOOR_MAX_PODS.
 */
export function lpBound(objects: ClusterObjects, catalog: InstanceTypeCatalog): LpBound | undefined {
  const snapshot = freshSnapshot(objects, catalog);
  return snapshot ? lpOf(snapshot) : undefined;
}

export function fleetBound(objects: ClusterObjects, catalog: InstanceTypeCatalog): FleetBound | undefined {
  const snapshot = freshSnapshot(objects, catalog);
  if (!snapshot) return undefined;
  const packing = simulateProvisioning(snapshot, { upstream: false });
  const packingPerHour = packing.nodeClaims.reduce((s, c) => s + (c.cheapest?.price ?? 0), 0);
  const unplaced = packing.pods.filter((p) => p.result === 'unschedulable').length;
  return { ...lpOf(snapshot), packingPerHour, unplaced };
}
