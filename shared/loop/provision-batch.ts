// One provisioning batch (docs/architecture.md): the live snapshot and the store's memory become NodeClaims — the
// scheduler runs over pending demand against live nodes and in-flight claims, each new claim is created in the
// API server, its pods are nominated to it, and its cloud's launcher is invoked (one invocation per claim or
// per gang). Pods no NodePool could ever take get a verdict that disruption passes read.
import type { NodeClass } from '../model/nodeclass.ts';
import { podKey, type Pod } from '../model/pod.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { buildInstanceTypes } from '../scheduling/instance-type.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import { solve } from '../scheduling/scheduler.ts';
import { buildSnapshot, type ClusterSnapshot } from '../state/snapshot.ts';
import { passView } from '../state/scheduling-view.ts';
import { describeNotReady } from '../state/pool-readiness.ts';
import { incompatibleWithEveryPool } from '../provisioning/verdicts.ts';
import { pendingDemand } from '../provisioning/demand.ts';
import { batchCapacity } from '../provisioning/in-flight.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import { claimName } from '../provisioning/nodeclaims.ts';
import { withoutRefused } from '../provisioning/offerings.ts';
import { schedulingOptions } from '../provisioning/simulate.ts';
import { bookings, holdBookings } from '../provisioning/request-booking.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { Invoker } from '../ports/invoker.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { Fence, Nomination, PassState } from '../ports/state-store/records.ts';
import type { InstanceTypeCache } from './instance-types.ts';
import { createClaim } from './claim-create.ts';
import { invokeLaunchers } from './launch-invoke.ts';
import { planFailover, reportFailover } from './gang-failover.ts';
import { leavingOf } from './leaving-pods.ts';
import { publishEvents } from './events.ts';
import { inParallel } from './parallel.ts';
import { batchEvents, logBatch } from './provision-events.ts';
import { poolSpecs } from './pool-instance-types.ts';

/** The running loop judges NodePool readiness from the node classes (docs/mechanisms/pool-readiness.md). */
const LIVE = { poolReadiness: true } as const;

/** Claims created (and launchers invoked) at once per batch: the API server and DynamoDB absorb this easily. */
const CLAIM_PARALLELISM = 16;

export interface BatchDeps {
  readonly cluster: Cluster;
  readonly store: StateStore;
  readonly invoker: Invoker;
  readonly instanceTypes: Pick<InstanceTypeCache, 'get'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly nonce: () => string;
}

export interface BatchSettings {
  readonly nominationTtlMs: number;
  readonly verdictTtlMs: number;
  /** Every kraftsman difference off (the Volcano fix, cheapest pool among equal weights, reachable domains). */
  readonly upstream: boolean;
}

export interface BatchResult {
  readonly demand: number;
  readonly claimsCreated: number;
  readonly launchesInvoked: number;
  readonly placedOnExisting: number;
  readonly unschedulable: number;
  readonly verdicts: number;
  /** Demand pods (podIdentity) that got no new claim: placed on a node already there, or not placed. */
  readonly withoutClaim: readonly string[];
  /** The nominations this batch wrote (to new claims and to existing nodes). */
  readonly nominations: readonly Nomination[];
  /** The open commands as this batch read them: their candidates are leaving. */
  readonly openCommands: PassState['openCommands'];
}

/** A pod recreated under the same name is a new pod: its UID changes. */
export const podIdentity = (p: Pod): string => `${podKey(p)}#${p.metadata.uid ?? ''}`;

export async function runBatch(
  deps: BatchDeps,
  settings: BatchSettings,
  fence: Fence,
  objects: ClusterObjects,
): Promise<BatchResult> {
  const started = deps.clock.now();
  const state = await deps.store.loadPassState(fence.cluster);
  const leaving = leavingOf(objects, state, started);
  const demand = pendingDemand(objects, state.nominations, started, !settings.upstream, leaving);
  const specs = await poolSpecs(deps.instanceTypes, objects);
  const offered = withoutRefused(specs, state.unavailableOfferings, started);
  // Covered pods are charged to the capacity they wait for; leaving nodes take nothing; booked
  // ProvisioningRequests' pods hold their capacity (docs/mechanisms/provisioning-requests.md, "Booking").
  const charged = batchCapacity(buildSnapshot(objects, buildInstanceTypes(offered), LIVE), demand);
  const snapshot = settings.upstream ? charged : holdBookings(charged, bookings(objects, started)).snapshot;
  const notReady = notReadyPools(deps, snapshot);
  const view = passView(snapshot);
  const options = schedulingOptions(view, settings.upstream);
  // Verdicts and failover judge with every offering available: the same snapshot unless an offering was refused.
  const everyOffering = () =>
    offered.every((o, i) => o === specs[i])
      ? snapshot
      : buildSnapshot(objects, buildInstanceTypes(specs), LIVE);
  const failover = await planFailover(
    deps,
    fence.cluster,
    objects,
    state.nominations,
    demand.pods,
    () => {
      const every = passView(everyOffering());
      return { view: every, options: schedulingOptions(every, settings.upstream) };
    },
    started,
  );
  const pending = failover.pods.map((p) => view.pendingPod(p));
  const result = solve(view.input(pending), options);
  deps.metrics.observe(M.schedulingDurationSeconds, (deps.clock.now().getTime() - started.getTime()) / 1000);
  deps.metrics.gauge(M.batchPods, demand.pods.length);
  const created = await createClaims(deps, fence, snapshot, result.claims, result.gangClaims);
  const nominations = nominationsOf(result.placements, created, started, settings.nominationTtlMs);
  if (nominations.length) await deps.store.putNominations(fence.cluster, nominations);
  const launches = await invokeLaunchers(
    deps.invoker,
    fence,
    created.map((c) => ({
      name: c.name,
      cloud: c.claim.template.cloud,
      nodeClass: c.nodeClass,
      gang: c.gang,
    })),
    CLAIM_PARALLELISM,
  );
  const unplaced = demand.pods.filter((p) => !result.placements.has(podKey(p)));
  const verdicts = await writeVerdicts(deps, settings, fence.cluster, everyOffering, unplaced, {
    errors: result.errors,
    notReady,
  });
  const story = {
    pods: new Map(demand.pods.map((p) => [podKey(p), p])),
    placements: result.placements,
    errors: result.errors,
    claimNames: new Map<unknown, string>(created.map((c) => [c.claim, c.name])),
    unplaced,
    notReady,
    at: started,
  };
  logBatch(
    deps.logger,
    story,
    created.map((c) => ({ name: c.name, nodePool: c.claim.template.nodePool, pods: c.claim.pods.length })),
  );
  await publishEvents(deps, batchEvents(story));
  await reportFailover(deps, failover, result, objects, started);
  if (demand.fromLeaving > 0)
    deps.logger.info('scheduled the pods of leaving nodes', {
      pods: demand.fromLeaving,
      nodes: demand.leavingNodes.size,
    });
  observeLatency(deps, created, nominations, objects);
  return {
    demand: demand.pods.length,
    claimsCreated: created.length,
    launchesInvoked: launches,
    placedOnExisting: [...result.placements.values()].filter((p) => p.kind === 'existing').length,
    unschedulable: unplaced.length,
    verdicts,
    withoutClaim: demand.pods
      .filter((p) => result.placements.get(podKey(p))?.kind !== 'new')
      .map(podIdentity),
    nominations,
    openCommands: state.openCommands,
  };
}

/**
 * NotReady NodePools are skipped by scheduling: each pool's readiness is a gauge, each NotReady one is logged per
 * batch, and their reasons end every verdict's reason (returned as that suffix), so a pod only such a pool could
 * take says why it starves.
 */
function notReadyPools(deps: BatchDeps, snapshot: ClusterSnapshot): string {
  const lines: string[] = [];
  for (const view of snapshot.nodePools.values()) {
    deps.metrics.gauge(M.nodePoolReady, view.notReady ? 0 : 1, { [L.nodePool]: view.name });
    if (!view.notReady) continue;
    lines.push(describeNotReady(view.name, view.notReady));
    deps.logger.warn('NodePool not ready; skipped by scheduling', {
      nodePool: view.name,
      reason: view.notReady.reason,
      message: view.notReady.message,
    });
  }
  return lines.length ? `; ${lines.join('; ')}` : '';
}

interface Created {
  readonly claim: NewClaim;
  readonly name: string;
  readonly nodeClass: NodeClass;
  readonly gang: string | undefined;
}

async function createClaims(
  deps: BatchDeps,
  fence: Fence,
  snapshot: ClusterSnapshot,
  claims: readonly NewClaim[],
  gangClaims: ReadonlyMap<string, readonly NewClaim[]>,
): Promise<Created[]> {
  const gangOf = new Map<NewClaim, string>();
  for (const [gang, members] of gangClaims) {
    // One launch id per attempt: a gang that failed and comes back is a new unit, never the old instances.
    const id = `${gang.replace(/[^a-z0-9-]/gi, '-').toLowerCase()}-${claimName('g', deps.nonce()).slice(2)}`;
    for (const c of members) gangOf.set(c, id);
  }
  const placed = claims.flatMap((c) => {
    const view = snapshot.nodePools.get(c.template.nodePool);
    // Named here, in the claims' order, not as the parallel creations get to them: the same nonces always name
    // the same claims (the local fleet's runs of a seed are the same, docs/fleet.md "Time").
    if (view?.nodeClass)
      return [
        { c, pool: view.pool, nodeClass: view.nodeClass, name: claimName(c.template.nodePool, deps.nonce()) },
      ];
    // unreachable while NotReady pools open no claims (docs/mechanisms/pool-readiness.md); never silent
    deps.logger.error('no node class for a new claim; not created', { nodePool: c.template.nodePool });
    return [];
  });
  return inParallel(placed, CLAIM_PARALLELISM, async ({ c, pool, nodeClass, name }): Promise<Created> => {
    const gang = gangOf.get(c);
    await createClaim(
      deps,
      fence,
      { c, pool, name, ...(gang ? { gang } : {}) },
      {
        message: 'created NodeClaim',
        fields: { nodePool: c.template.nodePool },
      },
    );
    return { claim: c, name, nodeClass, gang };
  });
}

function nominationsOf(
  placements: ReturnType<typeof solve>['placements'],
  created: readonly Created[],
  now: Date,
  ttlMs: number,
): Nomination[] {
  const names = new Map(created.map((c) => [c.claim, c.name]));
  const expiresAt = new Date(now.getTime() + ttlMs);
  const out: Nomination[] = [];
  for (const [key, p] of placements) {
    if (p.kind === 'existing') out.push({ podKey: key, nodeName: p.node, expiresAt });
    else {
      const claimName = names.get(p.claim);
      if (claimName) out.push({ podKey: key, claimName, expiresAt });
    }
  }
  return out;
}

/**
 * Verdicts only for cluster-state-independent rejections: judged against every NodePool with every offering
 * available and no node, so lack of capacity (cloud state) never becomes a verdict. Keyed by pod UID.
 */
async function writeVerdicts(
  deps: BatchDeps,
  settings: BatchSettings,
  cluster: string,
  everyOffering: () => ClusterSnapshot,
  unschedulable: readonly Pod[],
  why: { readonly errors: ReadonlyMap<string, string>; readonly notReady: string },
): Promise<number> {
  deps.metrics.count(M.unschedulablePodsTotal, unschedulable.length);
  // a leaving node's pod is still running: a verdict is only ever about a pending pod
  const unplaced = unschedulable.filter((p) => !p.spec.nodeName);
  if (unplaced.length === 0) return 0;
  const view = passView(everyOffering());
  const rejected = incompatibleWithEveryPool(view, unplaced, schedulingOptions(view, settings.upstream));
  const expiresAt = new Date(deps.clock.now().getTime() + settings.verdictTtlMs);
  const verdicts = unplaced
    .filter((p) => rejected.has(podKey(p)) && p.metadata.uid)
    .map((p) => ({
      podKey: podKey(p),
      podUid: p.metadata.uid as string,
      reason: `${why.errors.get(podKey(p)) ?? 'incompatible with every NodePool'}${why.notReady}`.slice(
        0,
        1024,
      ),
      expiresAt,
    }));
  if (verdicts.length) await deps.store.putVerdicts(cluster, verdicts);
  deps.metrics.count(M.verdictsWrittenTotal, verdicts.length);
  return verdicts.length;
}

/** Pod creation → the claim that will host it: the latency the watch loop exists to keep short. */
function observeLatency(
  deps: BatchDeps,
  created: readonly Created[],
  nominations: readonly Nomination[],
  objects: ClusterObjects,
): void {
  if (created.length === 0) return;
  const now = deps.clock.now().getTime();
  const pods = new Map(objects.pods.map((p) => [podKey(p), p]));
  for (const n of nominations) {
    const t = n.claimName ? pods.get(n.podKey)?.metadata.creationTimestamp : undefined;
    if (t) deps.metrics.observe(M.podClaimLatencySeconds, Math.max(0, now - Date.parse(t)) / 1000);
  }
}
