// The launch use case behind launch-aws and launch-gcp (one use case, two providers): launches one claim or
// one gang through the CloudProvider, idempotent through the launch record —
//   record (pending, fenced) ── cloud create (finds an instance already tagged for the claim) ── record launched
//   (conditional on pending) ── claim status
// so a retry after a crash anywhere adopts what the first attempt launched. Two deliveries in flight at once may
// each launch (on Compute Engine, in different zones): the first to record its instance wins, the other terminates
// its own as a duplicate (docs/mechanisms/identity.md#one-instance-per-claim). No
// capacity marks the refused offerings unavailable and deletes the claims: their pods are demand again and
// the next batch chooses around those offerings (other types, zones, or the other cloud). A gang's members each
// launch with their own node class and instance types (docs/mechanisms/gangs.md#mixed-shapes).
import type { InstanceTypeSpec } from '../model/catalog.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import { providerId, type CloudInstance, type CloudProvider } from '../ports/cloud-provider/index.ts';
import { InsufficientCapacityError, cloudErrorOf } from '../ports/cloud-provider/errors.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { PriceLookup } from '../ports/price-store.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { LaunchRecord } from '../ports/state-store/records.ts';
import { nodeClassOf, type LaunchRequestPayload } from './launch-request.ts';
import { finish, finishAll, type TypesOf } from './launch-finish.ts';
import { deleteClaims, markUnavailable, refuse, refuseMixedClouds } from './launch-refusal.ts';
import { builtinLookup } from './prices.ts';
import { joinTokenFor } from './launch-join.ts';

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
  /** Claims of a gang refused whole because its members need more than one cloud. */
  readonly mixedClouds: number;
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
    mixedClouds: 0,
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
  const clouds = [...new Set(live.map((c) => cloudOf(nodeClassOf(request, c.metadata.name))))].sort();
  if (request.gang && (clouds.length > 1 || clouds[0] !== deps.provider.cloud)) {
    // The provisioner places a gang on one cloud (docs/mechanisms/gangs.md#mixed-shapes); a request that still
    // spans two, or names the other cloud, launches nothing anywhere.
    const unlaunched = live.filter((c) => records.get(c.metadata.name)?.status !== 'launched');
    await refuseMixedClouds(deps, cluster, request.gang, unlaunched, clouds);
    return { ...counts, mixedClouds: unlaunched.length };
  }
  const typesOf = await instanceTypesOf(deps, request, live);
  const pending: NodeClaim[] = [];
  for (const c of live) {
    const r = records.get(c.metadata.name);
    if (r?.status === 'launched' && r.providerId) {
      // The record says launched: only the claim's status may be missing (a crash right after the record).
      if (!c.status?.providerID)
        await finish(deps, cluster, c, await deps.provider.get(providerId(r.providerId)), typesOf);
      counts.alreadyLaunched += 1;
    } else if (r?.status === 'failed') {
      await deleteClaims(deps.cluster, [c]);
      counts.gone += 1;
    } else pending.push(c);
  }
  if (pending.length === 0) return counts;
  try {
    const launched = await createInstances(deps, settings, request, pending, typesOf);
    const won = await finishAll(deps, cluster, launched, typesOf);
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

const cloudOf = (nc: NodeClass): string => (nc.kind === 'EC2NodeClass' ? 'aws' : 'gcp');

/** Each claim's candidate types, read once per node class its claims use (cheapest first by the stored prices). */
async function instanceTypesOf(
  deps: LaunchDeps,
  request: LaunchRequestPayload,
  claims: readonly NodeClaim[],
): Promise<TypesOf> {
  const prices = deps.prices ?? (() => Promise.resolve(builtinLookup(deps.provider.cloud)));
  const byClass = new Map<string, readonly InstanceTypeSpec[]>();
  for (const c of claims) {
    const nc = nodeClassOf(request, c.metadata.name);
    if (!byClass.has(nc.metadata.name))
      byClass.set(nc.metadata.name, await deps.provider.instanceTypes(nc, { prices }));
  }
  const types = (claim: NodeClaim) =>
    byClass.get(nodeClassOf(request, claim.metadata.name).metadata.name) ?? [];
  return Object.assign(types, { nodeClass: (claim: NodeClaim) => nodeClassOf(request, claim.metadata.name) });
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
  typesOf: TypesOf,
): Promise<{ claim: NodeClaim; instance: CloudInstance }[]> {
  if (request.gang) {
    const members = claims.map((claim) => ({
      claim,
      nodeClass: nodeClassOf(request, claim.metadata.name),
      instanceTypes: typesOf(claim),
    }));
    const join = await joinTokenFor(
      deps,
      members.map((m) => m.nodeClass),
      `gang/${request.gang}`,
    );
    const r = await deps.provider.createGang({ gang: request.gang, members, ...(join ? { join } : {}) });
    await markUnavailable(deps, settings, request.fence.cluster, r.unavailableOfferings);
    const byName = new Map(claims.map((c) => [c.metadata.name, c]));
    return r.instances.flatMap((x) => {
      const claim = byName.get(x.claim);
      return claim ? [{ claim, instance: x.instance }] : [];
    });
  }
  const claim = claims[0] as NodeClaim;
  const nodeClass = nodeClassOf(request, claim.metadata.name);
  const join = await joinTokenFor(deps, [nodeClass], `${claim.metadata.name}/${claim.metadata.uid ?? ''}`);
  const r = await deps.provider.create({
    claim,
    nodeClass,
    instanceTypes: typesOf(claim),
    ...(join ? { join } : {}),
  });
  await markUnavailable(deps, settings, request.fence.cluster, r.unavailableOfferings);
  return [{ claim, instance: r.instance }];
}
