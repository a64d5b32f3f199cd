// The launch use case behind launch-aws and launch-gcp (one use case, two providers): launches one claim or
// one gang through the CloudProvider, idempotent through the launch record —
//   record (pending, fenced) ── cloud create (finds an instance already tagged for the claim) ── record launched
//   (conditional on pending) ── claim status
// so a retry after a crash anywhere adopts what the first attempt launched. Two deliveries in flight at once may
// each launch (on Compute Engine, in different zones): the first to record its instance wins, the other terminates
// its own as a duplicate (docs/mechanisms/identity.md#one-instance-per-claim). No
// capacity marks the refused offerings unavailable and deletes the claims: their pods are demand again and
// the next batch chooses around those offerings (other types, zones, or the other cloud).
import { builtinCatalog } from '../catalog/builtin.ts';
import { CAPACITY_TYPE, INSTANCE_TYPE, ZONE } from '../model/labels.ts';
import type { InstanceTypeSpec } from '../model/catalog.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import { buildInstanceTypes } from '../scheduling/instance-type.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import { toQuantities } from '../provisioning/nodeclaims.ts';
import type { UnavailableOffering as Refusal } from '../model/unavailable-offering.ts';
import { providerId, type CloudInstance, type CloudProvider } from '../ports/cloud-provider/index.ts';
import { InsufficientCapacityError, cloudErrorOf } from '../ports/cloud-provider/errors.ts';
import { ConditionFailedError } from '../ports/state-store/errors.ts';
import { claimName } from '../model/names.ts';
import { DUPLICATE_INSTANCES_METRIC } from './duplicate-instances.ts';
import { involvedOf, terminateInstance } from './terminate-instance.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { PriceLookup } from '../ports/price-store.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { LaunchRecord } from '../ports/state-store/records.ts';
import type { LaunchRequestPayload } from './launch-request.ts';
import { setCondition } from './conditions.ts';
import { catalogLookup } from './prices.ts';

export interface LaunchDeps {
  readonly cluster: Cluster;
  readonly store: StateStore;
  readonly provider: CloudProvider;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /**
   * The prices the launch orders its offerings by (cheapest first): the stored price book, as the pass that
   * chose the claim read it, so launcher and provisioner agree and no launcher calls a price API. Without it,
   * the built-in catalog's prices.
   */
  readonly prices?: () => Promise<PriceLookup>;
}

export interface LaunchSettings {
  /** How long a refused offering stays unavailable (Karpenter: 3 minutes). */
  readonly unavailableTtlMs: number;
}

export interface LaunchCounts {
  readonly claims: number;
  readonly launched: number;
  /** Claims whose instance an earlier attempt had already launched (found by record or by tag). */
  readonly alreadyLaunched: number;
  /** Claims deleted or being deleted before they launched. */
  readonly gone: number;
  /** Claims deleted because no offering had capacity. */
  readonly insufficientCapacity: number;
}

export async function launch(
  deps: LaunchDeps,
  settings: LaunchSettings,
  request: LaunchRequestPayload,
): Promise<LaunchCounts> {
  const counts = {
    claims: request.claims.length,
    launched: 0,
    alreadyLaunched: 0,
    gone: 0,
    insufficientCapacity: 0,
  };
  const live = await liveClaims(deps.cluster, request.claims);
  counts.gone = request.claims.length - live.length;
  if (live.length === 0) return counts;
  if (request.gang && live.length < request.claims.length) {
    // All or nothing: a gang that lost a member before launching launches nobody.
    await deleteClaims(deps.cluster, live);
    return { ...counts, gone: request.claims.length };
  }
  const cluster = request.fence.cluster;
  const records = await recordLaunches(deps, request, live);
  const prices = deps.prices ?? (() => Promise.resolve(catalogLookup(builtinCatalog(), deps.provider.cloud)));
  const types = await deps.provider.instanceTypes(request.nodeClass, { prices });
  const pending: NodeClaim[] = [];
  for (const c of live) {
    const r = records.get(c.metadata.name);
    if (r?.status === 'launched' && r.providerId) {
      // The record says launched: only the claim's status may be missing (a crash right after the record).
      if (!c.status?.providerID)
        await finish(deps, cluster, c, await deps.provider.get(providerId(r.providerId)), types);
      counts.alreadyLaunched += 1;
    } else if (r?.status === 'failed') {
      await deleteClaims(deps.cluster, [c]);
      counts.gone += 1;
    } else pending.push(c);
  }
  if (pending.length === 0) return counts;
  try {
    const launched = await createInstances(deps, settings, request, pending, types);
    const won = await finishAll(deps, cluster, launched, types);
    counts.launched = won;
    counts.alreadyLaunched += launched.length - won;
  } catch (err: unknown) {
    const ice = cloudErrorOf(err);
    if (!(ice instanceof InsufficientCapacityError)) throw err;
    await refuse(deps, settings, cluster, pending, ice);
    counts.insufficientCapacity = pending.length;
  }
  return counts;
}

async function liveClaims(cluster: Cluster, names: readonly string[]): Promise<NodeClaim[]> {
  const out: NodeClaim[] = [];
  for (const name of names) {
    try {
      const c = await cluster.getNodeClaim(name);
      if (!c.metadata.deletionTimestamp) out.push(c);
    } catch (err: unknown) {
      if (!(err instanceof ObjectNotFoundError)) throw err;
    }
  }
  return out;
}

async function recordLaunches(
  deps: LaunchDeps,
  request: LaunchRequestPayload,
  claims: readonly NodeClaim[],
): Promise<Map<string, LaunchRecord>> {
  const out = new Map<string, LaunchRecord>();
  for (const c of claims) {
    const existing = await deps.store.getLaunch(request.fence.cluster, c.metadata.name);
    if (existing) {
      out.set(c.metadata.name, existing);
      continue;
    }
    // Only a claim its creator did not record (a crash between the two): fenced, so a stale creator's fails.
    const { record } = await deps.store.recordLaunch(request.fence, {
      claimName: c.metadata.name,
      cloud: deps.provider.cloud,
      nodePool: c.metadata.labels?.['karpenter.sh/nodepool'] ?? 'unknown',
      ...(request.commandId ? { commandId: request.commandId } : {}),
    });
    out.set(c.metadata.name, record);
  }
  return out;
}

async function createInstances(
  deps: LaunchDeps,
  settings: LaunchSettings,
  request: LaunchRequestPayload,
  claims: readonly NodeClaim[],
  types: readonly InstanceTypeSpec[],
): Promise<{ claim: NodeClaim; instance: CloudInstance }[]> {
  const nodeClass: NodeClass = request.nodeClass;
  if (request.gang) {
    const r = await deps.provider.createGang({ gang: request.gang, claims, nodeClass, instanceTypes: types });
    await markUnavailable(deps, settings, request.fence.cluster, r.unavailableOfferings);
    const byName = new Map(claims.map((c) => [c.metadata.name, c]));
    return r.instances.flatMap((x) => {
      const claim = byName.get(x.claim);
      return claim ? [{ claim, instance: x.instance }] : [];
    });
  }
  const claim = claims[0] as NodeClaim;
  const r = await deps.provider.create({ claim, nodeClass, instanceTypes: types });
  await markUnavailable(deps, settings, request.fence.cluster, r.unavailableOfferings);
  return [{ claim, instance: r.instance }];
}

/**
 * Finishes each launched claim in order; on the first one another delivery recorded first, this delivery's
 * instances from there on are duplicates (a gang's are all in one zone) and are terminated. Returns how many won.
 */
async function finishAll(
  deps: LaunchDeps,
  cluster: string,
  launched: readonly { claim: NodeClaim; instance: CloudInstance }[],
  types: readonly InstanceTypeSpec[],
): Promise<number> {
  for (const [i, { claim, instance }] of launched.entries()) {
    if (await finish(deps, cluster, claim, instance, types)) continue;
    for (const rest of launched.slice(i)) await discardDuplicate(deps, rest.claim, rest.instance);
    return i;
  }
  return launched.length;
}

/** True when the record names `instance` (now or already); false when another delivery's instance won it. */
async function recordLaunched(
  deps: LaunchDeps,
  cluster: string,
  claim: NodeClaim,
  instance: CloudInstance,
): Promise<boolean> {
  const name = claim.metadata.name;
  try {
    await deps.store.completeLaunch(cluster, name, { status: 'launched', providerId: instance.providerId });
    return true;
  } catch (err: unknown) {
    if (!(err instanceof ConditionFailedError)) throw err;
    const record = await deps.store.getLaunch(cluster, name);
    if (record?.status !== 'launched' || record.providerId === instance.providerId) throw err;
    return false;
  }
}

/** An instance another delivery's won the claim from: terminated, proven to be this deployment's and the claim's. */
async function discardDuplicate(deps: LaunchDeps, claim: NodeClaim, instance: CloudInstance): Promise<void> {
  const outcome = await terminateInstance(deps, deps.provider, {
    providerId: instance.providerId,
    nodeClaim: claimName(claim),
    object: involvedOf('NodeClaim', claim),
  });
  if (outcome === 'refused') return;
  deps.metrics.count(DUPLICATE_INSTANCES_METRIC, 1, { cloud: deps.provider.cloud });
  deps.logger.warn('another delivery launched this NodeClaim first; terminated this one’s instance', {
    claim: claim.metadata.name,
    providerID: instance.providerId,
  });
}

/**
 * Karpenter's PopulateNodeClaimDetails: the launched type, zone and capacity type, and the type's resources —
 * after the launch record names this instance (false, and nothing written, when another delivery's did first).
 */
async function finish(
  deps: LaunchDeps,
  cluster: string,
  claim: NodeClaim,
  instance: CloudInstance,
  types: readonly InstanceTypeSpec[],
): Promise<boolean> {
  if (!(await recordLaunched(deps, cluster, claim, instance))) return false;
  const name = claim.metadata.name;
  await deps.cluster.patchMetadata('NodeClaim', name, {
    labels: {
      [INSTANCE_TYPE]: instance.instanceType,
      [ZONE]: instance.zone,
      [CAPACITY_TYPE]: instance.capacityType,
    },
  });
  const spec = types.find((t) => t.name === instance.instanceType);
  const it = spec ? buildInstanceTypes([spec])[0] : undefined;
  const now = deps.clock.now();
  await deps.cluster.updateNodeClaimStatus(name, (s) => ({
    ...s,
    providerID: instance.providerId,
    ...(instance.imageId ? { imageID: instance.imageId } : {}),
    ...(it ? { capacity: toQuantities(it.capacity), allocatable: toQuantities(it.allocatable) } : {}),
    conditions: setCondition(s.conditions, 'Launched', 'True', now),
  }));
  deps.metrics.count(M.nodeClaimsLaunchedTotal, 1, {
    [L.nodePool]: claim.metadata.labels?.['karpenter.sh/nodepool'] ?? 'unknown',
    [L.cloud]: deps.provider.cloud,
  });
  deps.logger.info('launched NodeClaim', {
    claim: name,
    providerID: instance.providerId,
    instanceType: instance.instanceType,
    zone: instance.zone,
    capacityType: instance.capacityType,
  });
  return true;
}

async function markUnavailable(
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
async function refuse(
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

async function deleteClaims(cluster: Cluster, claims: readonly NodeClaim[]): Promise<void> {
  for (const c of claims) {
    try {
      await cluster.deleteNodeClaim(c.metadata.name, c.metadata.uid ? { uid: c.metadata.uid } : undefined);
    } catch (err: unknown) {
      if (!(err instanceof ObjectNotFoundError)) throw err;
    }
  }
}
