// A gang on Compute Engine (docs/mechanisms/gangs.md#mixed-shapes): one bulkInsert per shape, with count and
// minCount the shape's members, in one zone and one machine type; offerings tried cheapest first (zones the gang
// already launched in first). When a shape finds no offering for all its members, the instances of the shapes
// already launched are deleted (rollback) and the gang is refused whole.
import type { protos } from '@google-cloud/compute';
import type { LaunchOption } from '../../model/launch-options.ts';
import { claimNodePool } from '../../model/launch-options.ts';
import { claimName } from '../../model/names.ts';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { GCENodeClass, NodeClass } from '../../model/nodeclass.ts';
import type { UnavailableOffering } from '../../model/unavailable-offering.ts';
import {
  FatalCloudError,
  InsufficientCapacityError,
  RetryableCloudError,
} from '../../ports/cloud-provider/errors.ts';
import {
  gangShapes,
  preferZones,
  type CloudInstance,
  type GangLaunchRequest,
  type GangLaunchResult,
  type GangShape,
} from '../../ports/cloud-provider/index.ts';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import type { GceContext } from './gce-context.ts';
import { LABEL_GANG, instanceName, labelValue } from './instances.ts';
import { instanceProperties } from './instance-body.ts';
import { launchAttempt } from './launch.ts';
import { deleteAll, requestId } from './queries.ts';

type Instance = protos.google.cloud.compute.v1.IInstance;

export interface GceGangDeps {
  readonly ctx: GceContext;
  readonly gceClass: (nc: NodeClass) => GCENodeClass;
  /**
   * The instance body for `claim` on `option`, without per-claim metadata, with these extra labels; `types` are the
   * shape's candidates (the image follows the option's type: its architecture and GPUs).
   */
  readonly body: (
    nc: GCENodeClass,
    claim: NodeClaim,
    option: LaunchOption,
    labels: Record<string, string>,
    types: readonly InstanceTypeSpec[],
  ) => Instance;
  readonly options: (claim: NodeClaim, types: readonly InstanceTypeSpec[]) => LaunchOption[];
  readonly findGang: (label: string) => Promise<CloudInstance[]>;
}

export async function createGceGang(
  deps: GceGangDeps,
  request: GangLaunchRequest,
): Promise<GangLaunchResult> {
  const n = request.members.length;
  if (n === 0) throw new FatalCloudError(`gang ${request.gang} has no NodeClaims`);
  const shapes = gangShapes(request);
  const label = labelValue(request.gang);
  const existing = await deps.findGang(label);
  if (existing.length === n) return { instances: matchGang(request, existing), unavailableOfferings: [] };
  if (existing.length > 0) {
    await deleteAll(deps.ctx, existing);
    throw new RetryableCloudError(
      `gang ${request.gang}: deleted ${existing.length} of ${n} instances left by an earlier attempt`,
    );
  }
  const refused: UnavailableOffering[] = [];
  const launched: CloudInstance[] = [];
  const zones = new Set<string>();
  for (const shape of shapes) {
    let got: CloudInstance[] | undefined;
    try {
      got = await launchShape(deps, request, shape, label, zones, refused);
    } catch (err) {
      await deleteAll(deps.ctx, launched);
      throw err;
    }
    if (!got) {
      // All or nothing: this shape fits nowhere, so the shapes already launched are rolled back.
      await deleteAll(deps.ctx, launched);
      const pool = claimNodePool(shape.claims[0] as NodeClaim) ?? '?';
      throw new InsufficientCapacityError(
        `gang ${request.gang} (${n} instances): no offering had capacity for all ${shape.claims.length} of shape ${shape.index + 1} (NodePool ${pool})${launched.length ? `; deleted the ${launched.length} instances the other shapes launched` : ''}`,
        refused,
      );
    }
    launched.push(...got);
    for (const i of got) zones.add(i.zone);
  }
  return { instances: matchGang(request, launched), unavailableOfferings: refused };
}

/** The shape's instances, or undefined when no offering took all of them (its refusals added to `refused`). */
async function launchShape(
  deps: GceGangDeps,
  request: GangLaunchRequest,
  shape: GangShape,
  label: string,
  zones: ReadonlySet<string>,
  refused: UnavailableOffering[],
): Promise<CloudInstance[] | undefined> {
  const first = shape.claims[0] as NodeClaim;
  const nc = deps.gceClass(shape.nodeClass);
  const names = shape.claims.map((c) => instanceName(c.metadata.name));
  const k = names.length;
  const { ctx } = deps;
  for (const option of preferZones(deps.options(first, shape.instanceTypes), zones)) {
    const props = deps.body(nc, first, option, { [LABEL_GANG]: label }, shape.instanceTypes);
    const id = requestId([
      ctx.config.clusterName,
      'gang',
      request.gang,
      String(shape.index),
      ...shape.claims.map((c) => c.metadata.uid ?? c.metadata.name),
      option.instanceType,
      option.zone,
    ]);
    const resource = {
      count: String(k),
      minCount: String(k),
      perInstanceProperties: Object.fromEntries(names.map((x) => [x, { name: x }])),
      instanceProperties: instanceProperties(props),
    };
    const outcome = await launchAttempt(ctx, option, () =>
      ctx.clients.instances.bulkInsert({
        project: ctx.config.project,
        zone: option.zone,
        requestId: id,
        bulkInsertInstanceResourceResource:
          resource as protos.google.cloud.compute.v1.IBulkInsertInstanceResource,
      }),
    );
    if (outcome !== 'launched') {
      refused.push(outcome);
      continue;
    }
    const mine = (await deps.findGang(label)).filter((i) =>
      names.some((x) => i.providerId.endsWith(`/${x}`)),
    );
    if (mine.length < k) {
      // Fewer than minCount must not survive, whatever the API did.
      await deleteAll(ctx, mine);
      refused.push({
        instanceType: option.instanceType,
        zone: option.zone,
        capacityType: option.capacityType,
        reason: 'PARTIAL_BULK_INSERT',
      });
      continue;
    }
    return mine;
  }
  return undefined;
}

function matchGang(
  request: GangLaunchRequest,
  found: readonly CloudInstance[],
): GangLaunchResult['instances'] {
  return request.members.map(({ claim }) => {
    const name = instanceName(claim.metadata.name);
    const instance = found.find((x) => x.providerId.endsWith(`/${name}`));
    if (!instance) throw new RetryableCloudError(`gang ${request.gang}: instance ${name} is missing`);
    return { claim: claimName(claim), instance: { ...instance, nodeClaim: claimName(claim) } };
  });
}
