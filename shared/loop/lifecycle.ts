// The lifecycle use case (scheduled every minute, under the lifecycle lease): registration and initialization,
// launch / registration / initialization timeouts, expiration, claims whose Node was deleted, the drain and
// finish of terminating Nodes, Compute Engine preemptions, and garbage collection. Every step acts on what
// the API server and the clouds hold now; one failing claim is counted and the rest go on (partial success).
// Every destructive step is guarded (guard.ts): nothing an invalid object concerns is touched, and an absence
// read from the view is confirmed by a direct read first (docs/mechanisms/identity.md).
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import { claimActions, type ClaimAction, type LifecycleTimeouts } from '../provisioning/lifecycle.ts';
import type { ClusterObjects } from '../state/objects.ts';
import type { InterruptionSignal } from '../ports/cloud-provider/index.ts';
import type { SnapshotRead } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import {
  claimOfNode,
  claimsNeverLaunched,
  claimsToTerminate,
  claimsWithDeletedNodes,
  NODE_DELETED_CAUSE,
  nodesToTerminate,
  startNodeTermination,
  terminateDeletedClaim,
} from './deletion-requests.ts';
import { collectGarbage, type GcCounts } from './garbage-collection.ts';
import { collectInstanceProfiles } from './instance-profile-gc.ts';
import type { InstanceProfileCollector, ProfileGcCounts } from '../ports/instance-profiles.ts';
import { handleInterruptions } from './interruption.ts';
import { KARPENTER_TERMINATION_FINALIZER, releaseHeld, releaseTerminated } from './finalizers.ts';
import { publishEvents } from './events.ts';
import { guard, type Guard } from './guard.ts';
import { interruptionPorts } from './interruption-ports.ts';
import { publishPoolStatuses } from './pool-status.ts';
import { publishNodeClassStatuses } from './nodeclass-status.ts';
import { publishClaimDisruptionConditions } from './claim-disruption-status.ts';
import { initialize, register } from './registration.ts';
import { drainStep, startTermination, TERMINATION_STARTED, type TerminationDeps } from './termination.ts';
import { withLease, type LeaseDeps } from './with-lease.ts';

/** Compute Engine reports preemptions as zonal operations; the GCE provider lists them. */
export interface PreemptionSource {
  interruptions(since: Date): Promise<{ signals: InterruptionSignal[]; skipped: number }>;
}

export interface LifecycleDeps extends TerminationDeps, LeaseDeps {
  readonly preemptions?: PreemptionSource;
  /** The managed instance profiles of EC2NodeClasses with a role (the EC2 provider's, when it has IAM). */
  readonly instanceProfiles?: InstanceProfileCollector;
}

export interface LifecycleSettings {
  readonly timeouts: LifecycleTimeouts;
  /** Past this, a drain blocked by PDBs finishes anyway (Karpenter's terminationGracePeriod). */
  readonly drainTimeoutMs: number;
  /** Instances and Nodes younger than this are never garbage (their claim's status may be on its way). */
  readonly gcGraceMs: number;
  /** How far back each run reads preemption operations (overlapping runs are harmless: causes stick). */
  readonly preemptionLookbackMs: number;
}

export interface LifecycleRequest {
  readonly cluster: string;
  readonly owner: string;
  readonly runId?: string;
  readonly leaseTtlMs: number;
  readonly settings: LifecycleSettings;
}

export interface LifecycleCounts {
  registered: number;
  initialized: number;
  terminated: number;
  drained: number;
  interruptions: number;
  garbage: GcCounts;
  /** Managed instance profiles deleted, kept, and refused as not this cluster's (docs/mechanisms/instance-profiles.md). */
  profiles: ProfileGcCounts;
  failed: number;
  errors: string[];
}

export type LifecycleResult =
  ({ readonly outcome: 'ran' } & LifecycleCounts) | { readonly outcome: 'held'; readonly holder: string };

export async function lifecycle(deps: LifecycleDeps, request: LifecycleRequest): Promise<LifecycleResult> {
  const run = await withLease(
    deps,
    {
      cluster: request.cluster,
      name: 'lifecycle',
      owner: request.owner,
      ttlMs: request.leaseTtlMs,
      ...(request.runId ? { runId: request.runId } : {}),
    },
    () => reconcile(deps, request.settings),
  );
  return run.outcome === 'held'
    ? { outcome: 'held', holder: run.holder.owner }
    : { outcome: 'ran', ...run.value };
}

async function reconcile(deps: LifecycleDeps, settings: LifecycleSettings): Promise<LifecycleCounts> {
  const counts: LifecycleCounts = {
    registered: 0,
    initialized: 0,
    terminated: 0,
    drained: 0,
    interruptions: 0,
    garbage: { instances: 0, claims: 0 },
    profiles: { deleted: 0, kept: 0, refused: 0 },
    failed: 0,
    errors: [],
  };
  const attempt: Attempt = async (what, step) => {
    try {
      await step();
    } catch (err: unknown) {
      counts.failed += 1;
      counts.errors.push(`${what}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
      deps.logger.error('lifecycle step failed', { step: what, error: counts.errors.at(-1) });
    }
  };
  let read = await deps.cluster.readSnapshot();
  let g = guard(deps, read);
  if (deps.preemptions) await attempt('preemptions', () => preemptions(deps, settings, read, counts));
  // Before the per-claim timeouts: a claim whose Node was deleted would otherwise read as never registered.
  const nodeDeleted = await terminateDeletedNodes(deps, g, read.objects, counts, attempt);
  for (const action of claimActions(read.objects, deps.clock.now(), settings.timeouts))
    if (!nodeDeleted.has(action.claim.metadata.name))
      await attempt(`${action.kind} ${action.claim.metadata.name}`, () =>
        act(deps, g, action, read.objects, counts),
      );
  read = await deps.cluster.readSnapshot();
  g = guard(deps, read);
  await requestedTerminations(deps, g, read.objects, settings, counts, attempt);
  read = await deps.cluster.readSnapshot();
  g = guard(deps, read);
  for (const node of read.objects.nodes.filter(draining))
    await attempt(`drain ${node.metadata.name}`, async () => {
      const target = { node: node.metadata.name, providerId: node.spec?.providerID };
      if (!(await g.touchable('drain', target))) return;
      if ((await drainStep(deps, node, settings.drainTimeoutMs)).finished) counts.drained += 1;
    });
  const objects = read.objects;
  await attempt('garbage collection', async () => {
    counts.garbage = await collectGarbage(deps, objects, settings.gcGraceMs, g);
  });
  const profiles = deps.instanceProfiles;
  if (profiles)
    await attempt('instance profiles', async () => {
      counts.profiles = await collectInstanceProfiles(
        profiles,
        objects,
        deps.clock.now(),
        settings.gcGraceMs,
      );
      if (counts.profiles.deleted > 0)
        deps.logger.info('deleted instance profiles of removed node classes', { ...counts.profiles });
    });
  await attempt('finalizers', async () => {
    const released = await releaseHeld(deps.cluster, deps.providers, objects);
    if (released) deps.logger.info('released Karpenter finalizers of deleted objects', { released });
  });
  // Karpenter's NodePool counter and readiness controllers, from this pass's last read (pool-status.ts).
  await attempt('nodepool status', async () => {
    await publishPoolStatuses(deps, objects);
  });
  // Karpenter's nodeclaim disruption controller: Consolidatable and Drifted (claim-disruption-status.ts).
  await attempt('nodeclaim disruption conditions', async () => {
    await publishClaimDisruptionConditions(deps, objects);
  });
  // Karpenter's node-class status controller: what the selectors resolve to, and Ready (nodeclass-status.ts).
  await attempt('node class status', async () => {
    await publishNodeClassStatuses(deps, objects);
  });
  return counts;
}

type Attempt = (what: string, step: () => Promise<void>) => Promise<void>;

/**
 * Terminates each registered claim whose Node was deleted outright (deletion-requests.ts), once a direct read
 * confirms the Node is gone; returns their names (refused or not: none is a registration timeout either).
 */
async function terminateDeletedNodes(
  deps: LifecycleDeps,
  g: Guard,
  objects: ClusterObjects,
  counts: LifecycleCounts,
  attempt: Attempt,
): Promise<ReadonlySet<string>> {
  const names = new Set<string>();
  for (const claim of claimsWithDeletedNodes(objects)) {
    names.add(claim.metadata.name);
    await attempt(`claim ${claim.metadata.name} of a deleted Node`, async () => {
      if (!(await g.touchable('terminate', claimTarget(claim)))) return;
      if (!(await g.nodeAbsent('terminate', claim))) return;
      await startTermination(deps, claim, undefined, NODE_DELETED_CAUSE);
      counts.terminated += 1;
    });
  }
  return names;
}

const claimTarget = (c: NodeClaim, node?: Node) => ({
  claim: c.metadata.name,
  node: node?.metadata.name ?? c.status?.nodeName,
  providerId: c.status?.providerID,
});

/**
 * Terminations someone else asked for (deletion-requests.ts): Nodes whose claim is gone or going, and claims
 * being deleted without a Node. A Node the view shows unowned is drained only once claims listed now confirm
 * it; a claim's instance is terminated without a drain only once a direct read confirms it has no Node.
 */
async function requestedTerminations(
  deps: LifecycleDeps,
  g: Guard,
  objects: ClusterObjects,
  settings: LifecycleSettings,
  counts: LifecycleCounts,
  attempt: Attempt,
): Promise<void> {
  for (const node of nodesToTerminate(objects, deps.clock.now(), settings.gcGraceMs))
    await attempt(`orphan node ${node.metadata.name}`, async () => {
      const claim = claimOfNode(objects, node);
      if (!(await g.touchable('drain', { node: node.metadata.name, providerId: node.spec?.providerID })))
        return;
      // Neither its own deletion nor its claim's asked for it: only the claim's absence, which the view may lag.
      if (!node.metadata.deletionTimestamp && !claim && !(await g.claimAbsent('drain', node))) return;
      await startNodeTermination(deps, node, claim);
    });
  for (const claim of claimsToTerminate(objects))
    await attempt(`deleted claim ${claim.metadata.name}`, async () => {
      if (!(await g.touchable('terminate', claimTarget(claim)))) return;
      if (!(await g.nodeAbsent('terminate', claim))) return;
      if (await terminateDeletedClaim(deps, claim)) counts.terminated += 1;
    });
  for (const claim of claimsNeverLaunched(objects, deps.clock.now(), settings.gcGraceMs))
    await attempt(`deleted claim ${claim.metadata.name} without an instance`, async () => {
      if (!(await g.touchable('delete-nodeclaim', claimTarget(claim)))) return;
      // Re-read: a launcher that wrote the providerID since the snapshot made an instance, lifecycle's to end.
      const fresh = await deps.cluster.getNodeClaim(claim.metadata.name).catch((err: unknown) => {
        if (err instanceof ObjectNotFoundError) return undefined;
        throw err;
      });
      if (!fresh || fresh.status?.providerID) return;
      await releaseTerminated(deps.cluster, 'NodeClaim', claim.metadata.name);
      deps.logger.info('released a deleted NodeClaim that never launched', { claim: claim.metadata.name });
    });
}

/**
 * Nodes whose termination started and is not finished. One being deleted that no longer holds Karpenter's
 * finalizer was finished already (the instance terminated, the Node deleted, the finalizer released): only
 * another controller's finalizer keeps it, and finishing again would count its termination twice.
 */
const draining = (n: Node): boolean =>
  n.metadata.annotations?.[TERMINATION_STARTED] !== undefined &&
  !(n.metadata.deletionTimestamp && !n.metadata.finalizers?.includes(KARPENTER_TERMINATION_FINALIZER));

async function act(
  deps: LifecycleDeps,
  g: Guard,
  action: ClaimAction,
  objects: ClusterObjects,
  counts: LifecycleCounts,
): Promise<void> {
  if (action.kind === 'register') {
    await register(deps, action.claim, action.node);
    counts.registered += 1;
  } else if (action.kind === 'initialize') {
    const pods = objects.pods.filter((p) => p.spec.nodeName === action.node.metadata.name);
    await initialize(deps, action.claim, action.node, pods);
    counts.initialized += 1;
  } else {
    const { claim, node } = action;
    if (!(await g.touchable('terminate', claimTarget(claim, node)))) return;
    // Without a Node, termination terminates the instance at once, with no drain: the view may lag a Node.
    if (!node && claim.status?.providerID && !(await g.nodeAbsent('terminate', claim))) return;
    await startTermination(deps, claim, node, action.reason);
    counts.terminated += 1;
    // a gang companion of an expired claim (gang-expiry.ts): say which gang took it
    if (action.detail) {
      deps.logger.info('expiring a gang companion', { claim: claim.metadata.name, detail: action.detail });
      await publishEvents(deps, [
        {
          involved: {
            kind: 'NodeClaim',
            name: claim.metadata.name,
            ...(claim.metadata.uid ? { uid: claim.metadata.uid } : {}),
          },
          type: 'Normal',
          reason: GANG_EXPIRED_EVENT,
          message: action.detail,
        },
      ]);
    }
  }
}

/** The event on a claim terminated because another node of its running gang expired. */
export const GANG_EXPIRED_EVENT = 'GangExpired';

async function preemptions(
  deps: LifecycleDeps,
  settings: LifecycleSettings,
  read: SnapshotRead,
  counts: LifecycleCounts,
): Promise<void> {
  const since = new Date(deps.clock.now().getTime() - settings.preemptionLookbackMs);
  const { signals } = (await deps.preemptions?.interruptions(since)) ?? { signals: [] };
  const outcome = await handleInterruptions(signals, interruptionPorts(deps, read, settings.drainTimeoutMs));
  counts.interruptions += outcome.drained;
  counts.failed += outcome.failed;
  counts.errors.push(...outcome.errors.map((e) => `interruption ${e.claim}: ${e.error}`));
}
