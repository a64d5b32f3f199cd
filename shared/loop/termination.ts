// Terminating a NodeClaim (Karpenter's termination controller; claims and Nodes hold its finalizer,
// docs/mechanisms/termination-finalizer.md):
//   start: stamp the cause on the claim and the Node, taint the Node karpenter.sh/disrupted:NoSchedule,
//          delete the claim (marked, held by its finalizer: it stops counting as capacity; its pods become
//          demand as they are evicted)
//   drain: evict the Node's pods (PDBs honoured: a 429 waits for the next run)
//   finish: once drained, or once the claim's terminationGracePeriod (else the drain timeout) has passed,
//          delete the instance, then the Node; with the instance gone, Karpenter's finalizer is released from
//          the Node and its claim (finalizers.ts).
// Each step reads only what the API server holds, so any lifecycle run continues where another stopped.
import { DISRUPTED_TAINT_KEY, TERMINATION_CAUSE } from '../model/labels.ts';
import { parseDuration } from '../model/duration.ts';
import type { Cloud } from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import { drainPlan } from '../disruption/drain-order.ts';
import type { CloudProvider } from '../ports/cloud-provider/index.ts';
import { claimName } from '../model/names.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import type { Clock } from '../ports/clock.ts';
import { endLabels, observeLifetime, observeTermination } from './claim-accounting.ts';
import { deleteTerminated } from './finalizers.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import {
  involvedOf,
  terminateInstance,
  TerminationRefusedError,
  type TerminateSubject,
} from './terminate-instance.ts';

export const TERMINATION_STARTED = 'kraftsman.dev/termination-started';
/**
 * Karpenter's own annotation: the time the claim's terminationGracePeriod runs out, after which nothing (a PDB,
 * a do-not-disrupt pod) holds the drain any more. Stamped on the Node when its termination starts, which is where the
 * drain reads it (docs/functions/lifecycle.md#a-nodeclaim-an-operator-deletes).
 */
export const TERMINATION_DEADLINE = 'karpenter.sh/nodeclaim-termination-timestamp';
/**
 * The claim's terminationGracePeriod, copied to its Node at registration: a claim from a release that
 * set no finalizer goes at once when deleted, so by the time its Node's drain starts only this is left.
 */
export const TERMINATION_GRACE = 'kraftsman.dev/termination-grace-period';

/**
 * When the drain of `node` stops waiting, by Karpenter's rule: the claim's deletion (or `start`, when kraftsman
 * starts the termination itself) plus its terminationGracePeriod. Undefined when neither the claim nor the Node
 * names one: the drain timeout bounds the drain then.
 */
export function terminationDeadline(
  node: Node,
  claim: NodeClaim | undefined,
  start: Date,
): string | undefined {
  const text = claim?.spec.terminationGracePeriod ?? node.metadata.annotations?.[TERMINATION_GRACE];
  const grace = text === undefined ? undefined : parseDuration(text);
  if (grace === undefined) return undefined;
  const deleted = Date.parse(claim?.metadata.deletionTimestamp ?? '');
  return new Date((Number.isFinite(deleted) ? deleted : start.getTime()) + grace).toISOString();
}

/** The Node annotations a termination starts with; those already there (an earlier start) are kept. */
export function terminationAnnotations(
  node: Node,
  claim: NodeClaim | undefined,
  cause: string,
  now: Date,
): Record<string, string> {
  const held = node.metadata.annotations ?? {};
  const deadline = held[TERMINATION_DEADLINE] ?? terminationDeadline(node, claim, now);
  return {
    [TERMINATION_CAUSE]: held[TERMINATION_CAUSE] ?? cause,
    [TERMINATION_STARTED]: held[TERMINATION_STARTED] ?? now.toISOString(),
    ...(deadline ? { [TERMINATION_DEADLINE]: deadline } : {}),
  };
}

export interface TerminationDeps {
  readonly cluster: Cluster;
  readonly providers: Readonly<Partial<Record<Cloud, CloudProvider>>>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

export function cloudOfProviderId(id: string): Cloud | undefined {
  if (id.startsWith('aws://')) return 'aws';
  if (id.startsWith('gce://')) return 'gcp';
  return undefined;
}

const ignoreMissing = (err: unknown): void => {
  if (!(err instanceof ObjectNotFoundError)) throw err;
};

/** Starts terminating a claim; the first cause stamped wins (a later state change must not overwrite it). */
export async function startTermination(
  deps: TerminationDeps,
  claim: NodeClaim,
  node: Node | undefined,
  cause: string,
): Promise<void> {
  const name = claim.metadata.name;
  const stamped = claim.metadata.annotations?.[TERMINATION_CAUSE] ?? cause;
  const now = deps.clock.now();
  await deps.cluster
    .patchMetadata('NodeClaim', name, { annotations: { [TERMINATION_CAUSE]: stamped } })
    .catch(ignoreMissing);
  // The cause label folds interruption kinds into one; the kind itself is the disrupted count's reason.
  const labels = endLabels(claim, stamped);
  deps.metrics.count(M.nodeClaimsDisruptedTotal, 1, { ...labels, [L.reason]: stamped });
  observeLifetime(deps.metrics, claim, labels, now);
  if (node) {
    await deps.cluster.patchMetadata('Node', node.metadata.name, {
      annotations: terminationAnnotations(node, claim, stamped, now),
    });
    await deps.cluster.addTaint(node.metadata.name, { key: DISRUPTED_TAINT_KEY, effect: 'NoSchedule' });
    await deps.cluster.deleteNodeClaim(name).catch(ignoreMissing);
  } else if (
    !claim.status?.providerID ||
    (await deleteInstance(deps, claim.status.providerID, {
      nodeClaim: claimName(claim),
      object: involvedOf('NodeClaim', claim),
    }))
  ) {
    await deleteTerminated(deps.cluster, 'NodeClaim', name);
  } else await deps.cluster.deleteNodeClaim(name).catch(ignoreMissing);
  if (!node) deps.metrics.count(M.nodeClaimsTerminatedTotal, 1, labels);
  deps.logger.info('terminating NodeClaim', { claim: name, cause: stamped, node: node?.metadata.name });
}

/**
 * True once the instance is gone, false when no provider here serves its cloud. A refused instance (not this
 * deployment's, docs/mechanisms/identity.md#instances) throws TerminationRefusedError after the refusal is recorded:
 * the caller must not go on to delete its Node or NodeClaim as if it were gone.
 */
export async function deleteInstance(
  deps: TerminationDeps,
  id: string,
  subject: Omit<TerminateSubject, 'providerId'> = {},
): Promise<boolean> {
  const cloud = cloudOfProviderId(id);
  const provider = cloud ? deps.providers[cloud] : undefined;
  if (!provider) return false;
  const outcome = await terminateInstance(deps, provider, { providerId: id, ...subject });
  if (outcome === 'refused') throw new TerminationRefusedError(id);
  return true;
}

export interface DrainOutcome {
  readonly evicted: number;
  readonly blocked: number;
  readonly finished: boolean;
}

/**
 * One drain step for a Node whose termination started (Karpenter's terminator): evict the next group of
 * pods through the Eviction API (the order of shared/disruption/drain-order.ts), and finish only once
 * nothing is left — pods still terminating count, since an evicted pod runs on for its grace period — or once
 * the claim's terminationGracePeriod has run out (TERMINATION_DEADLINE), or, for a claim without one, the
 * drain timeout has passed since termination started.
 */
export async function drainStep(
  deps: TerminationDeps,
  node: Node,
  drainTimeoutMs: number,
): Promise<DrainOutcome> {
  const started = Date.parse(node.metadata.annotations?.[TERMINATION_STARTED] ?? '');
  const deadline = Date.parse(node.metadata.annotations?.[TERMINATION_DEADLINE] ?? '');
  const now = deps.clock.now();
  const overdue = Number.isFinite(deadline)
    ? now.getTime() >= deadline
    : Number.isFinite(started) && now.getTime() - started >= drainTimeoutMs;
  const plan = drainPlan(await deps.cluster.listPodsOnNode(node.metadata.name), now, overdue);
  let evicted = 0;
  let blocked = 0;
  if (!plan.drained && !overdue)
    for (const p of plan.evict) {
      const r = await deps.cluster.evictPod({
        name: p.metadata.name,
        namespace: p.metadata.namespace ?? 'default',
        ...(p.metadata.uid ? { uid: p.metadata.uid } : {}),
      });
      if (r.outcome === 'blocked') blocked += 1;
      else if (r.outcome === 'evicted') evicted += 1;
    }
  if (!plan.drained && !overdue) return { evicted, blocked, finished: false };
  await finishTermination(deps, node, Number.isFinite(started) ? started : undefined);
  return { evicted, blocked, finished: true };
}

async function finishTermination(
  deps: TerminationDeps,
  node: Node,
  startedMs: number | undefined,
): Promise<void> {
  const id = node.spec?.providerID;
  const gone = !id || (await deleteInstance(deps, id, { object: involvedOf('Node', node) }));
  if (!gone) await deps.cluster.deleteNode(node.metadata.name).catch(ignoreMissing);
  else {
    await deleteTerminated(deps.cluster, 'Node', node.metadata.name);
    // The claim was deleted when termination started; its instance is gone only now.
    for (const c of id ? await deps.cluster.listNodeClaims() : [])
      if (c.status?.providerID === id) await deleteTerminated(deps.cluster, 'NodeClaim', c.metadata.name);
  }
  const labels = endLabels(node, node.metadata.annotations?.[TERMINATION_CAUSE] ?? 'unknown');
  deps.metrics.count(M.nodeClaimsTerminatedTotal, 1, labels);
  observeTermination(deps.metrics, labels, startedMs, deps.clock.now());
  deps.logger.info('terminated node', { node: node.metadata.name, providerID: node.spec?.providerID });
}
