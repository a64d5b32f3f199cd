// Completing a launch (shared/loop/launch.ts): the launch record names the instance, then the claim gets its
// launched type, zone, capacity type and resources (Karpenter's PopulateNodeClaimDetails). An instance another
// delivery's record beat is a duplicate and is terminated (docs/mechanisms/identity.md#one-instance-per-claim).
import type { NodeClass } from '../model/nodeclass.ts';
import { nodeClassTypes } from '../state/node-class-types.ts';
import { CAPACITY_TYPE, INSTANCE_TYPE, ZONE } from '../model/labels.ts';
import type { InstanceTypeSpec } from '../model/catalog.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import { claimName } from '../model/names.ts';
import { buildInstanceTypes } from '../scheduling/instance-type.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import { toQuantities } from '../provisioning/nodeclaims.ts';
import type { CloudInstance } from '../ports/cloud-provider/index.ts';
import { ConditionFailedError } from '../ports/state-store/errors.ts';
import { DUPLICATE_INSTANCES_METRIC } from './duplicate-instances.ts';
import { involvedOf, terminateInstance } from './terminate-instance.ts';
import { writeClaimStatus } from './claim-status.ts';
import { setCondition } from './conditions.ts';
import type { LaunchDeps } from './launch.ts';

/** The candidate instance types of a claim's own node class (a gang's members may differ). */
/** A claim's candidate types; with `nodeClass`, the claim's status carries the allocatable its node class shapes. */
export type TypesOf = ((claim: NodeClaim) => readonly InstanceTypeSpec[]) & {
  readonly nodeClass?: (claim: NodeClaim) => NodeClass;
};

/**
 * Finishes each launched claim in order; on the first one another delivery recorded first, this delivery's
 * instances from there on are duplicates (a gang's are all in one zone) and are terminated. Returns how many won.
 */
export async function finishAll(
  deps: LaunchDeps,
  cluster: string,
  launched: readonly { claim: NodeClaim; instance: CloudInstance }[],
  types: TypesOf,
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
export async function finish(
  deps: LaunchDeps,
  cluster: string,
  claim: NodeClaim,
  instance: CloudInstance,
  types: TypesOf,
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
  const spec = types(claim).find((t) => t.name === instance.instanceType);
  const it = spec ? nodeClassTypes(buildInstanceTypes([spec]), types.nodeClass?.(claim))[0] : undefined;
  const now = deps.clock.now();
  await writeClaimStatus(deps, name, (s) => ({
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
