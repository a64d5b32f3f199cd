// What a launch that did not happen leaves behind (shared/loop/launch.ts): refused offerings marked unavailable
// for a while, failed launch records, and deleted claims whose pods are demand again; a gang whose members need
// more than one cloud is refused whole (docs/mechanisms/gangs.md#mixed-shapes).
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { UnavailableOffering as Refusal } from '../model/unavailable-offering.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import type { InsufficientCapacityError } from '../ports/cloud-provider/errors.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import { publishEvents } from './events.ts';
import { releaseTerminated } from './finalizers.ts';
import { involvedOf } from './terminate-instance.ts';
import type { LaunchDeps, LaunchSettings } from './launch.ts';

export async function markUnavailable(
  deps: LaunchDeps,
  settings: LaunchSettings,
  cluster: string,
  refused: readonly Refusal[],
): Promise<void> {
  if (refused.length === 0) return;
  const expiresAt = new Date(deps.clock.now().getTime() + settings.unavailableTtlMs);
  await deps.store.putUnavailableOfferings(
    cluster,
    refused.map((o) => ({ cloud: deps.provider.cloud, ...o, reason: o.reason.slice(0, 1024), expiresAt })),
  );
  deps.metrics.count(M.unavailableOfferingsTotal, refused.length, { [L.cloud]: deps.provider.cloud });
}

/** No offering had capacity: remember the refusals, fail the records, delete the claims (pods are demand again). */
export async function refuse(
  deps: LaunchDeps,
  settings: LaunchSettings,
  cluster: string,
  claims: readonly NodeClaim[],
  err: InsufficientCapacityError,
): Promise<void> {
  await markUnavailable(deps, settings, cluster, err.offerings);
  for (const c of claims)
    await deps.store.completeLaunch(cluster, c.metadata.name, {
      status: 'failed',
      error: `InsufficientCapacityError: ${err.message}`.slice(0, 4096),
    });
  // Karpenter's InsufficientCapacityErrorEvent (nodeclaim/lifecycle/events.go), before the claim goes.
  await publishEvents(
    deps,
    claims.map((c) => ({
      involved: involvedOf('NodeClaim', c),
      type: 'Warning' as const,
      reason: 'InsufficientCapacityError',
      message: `NodeClaim ${c.metadata.name} event: ${err.message.slice(0, 300)}`,
      at: deps.clock.now(),
      ...(c.metadata.uid ? { dedupeValues: [c.metadata.uid] } : {}),
    })),
  );
  await deleteClaims(deps.cluster, claims);
  deps.metrics.count(M.launchFailuresTotal, claims.length, {
    [L.cloud]: deps.provider.cloud,
    [L.reason]: 'insufficient_capacity',
  });
  deps.logger.warn('no capacity for NodeClaims; deleted them so their pods are provisioned again', {
    claims: claims.map((c) => c.metadata.name),
    offerings: err.offerings.length,
  });
}

/**
 * Deletes claims that launched nothing. Karpenter's NodeClaim finalizer lets a claim without a providerID go at
 * once ("ProviderID is empty when there is a failure while launching"), so the finalizer is released here; a
 * claim that has an instance keeps it until lifecycle has terminated that instance (deletion-requests.ts).
 */
export async function deleteClaims(cluster: Cluster, claims: readonly NodeClaim[]): Promise<void> {
  for (const c of claims) {
    try {
      await cluster.deleteNodeClaim(c.metadata.name, c.metadata.uid ? { uid: c.metadata.uid } : undefined);
      if (!c.status?.providerID) await releaseTerminated(cluster, 'NodeClaim', c.metadata.name);
    } catch (err: unknown) {
      if (!(err instanceof ObjectNotFoundError)) throw err;
    }
  }
}

export const GANG_REFUSED_REASON = 'GangRefused';

/**
 * A gang whose members' node classes belong to more than one cloud cannot launch as one unit on either: every
 * record fails, every claim gets a Warning event saying why and is deleted (its pods are demand again).
 */
export async function refuseMixedClouds(
  deps: LaunchDeps,
  cluster: string,
  gang: string,
  claims: readonly NodeClaim[],
  clouds: readonly string[],
): Promise<void> {
  const message = `gang ${gang} needs instances on more than one cloud (${clouds.join(', ')}): refused whole, nothing launched`;
  for (const c of claims) {
    await deps.store.completeLaunch(cluster, c.metadata.name, { status: 'failed', error: message });
    try {
      await deps.cluster.recordEvent({
        involved: involvedOf('NodeClaim', c),
        type: 'Warning',
        reason: GANG_REFUSED_REASON,
        message,
      });
    } catch (err: unknown) {
      deps.logger.warn('could not record the GangRefused event', {
        claim: c.metadata.name,
        error: String(err),
      });
    }
  }
  await deleteClaims(deps.cluster, claims);
  deps.metrics.count(M.launchFailuresTotal, claims.length, {
    [L.cloud]: deps.provider.cloud,
    [L.reason]: 'mixed_clouds',
  });
  deps.logger.warn(message, { gang, claims: claims.map((c) => c.metadata.name) });
}
