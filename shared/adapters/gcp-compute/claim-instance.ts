// A claim's instance on Compute Engine, found by its name in every zone. Instance names are unique per zone only,
// and the aggregated list is eventually consistent, so two deliveries of one launch could otherwise leave one VM
// per zone for a claim (docs/mechanisms/identity.md#one-instance-per-claim). A GET by name is strongly consistent.
import type { CloudInstance } from '../../ports/cloud-provider/index.ts';
import { cloudErrorOf } from '../../ports/cloud-provider/errors.ts';
import type { NodeClaimName } from '../../model/names.ts';
import type { GceContext } from './gce-context.ts';
import { toCloudInstance } from './instances.ts';
import { ownershipProblem, type Owner } from './ownership.ts';
import { isGone, readInstance } from './queries.ts';

export interface ClaimInstance {
  /** The live instance of this deployment launched for the claim, the earliest created if several. */
  readonly ours?: CloudInstance;
  /** Zones where the name is held by something else (another deployment's, a stopping one): not to insert into. */
  readonly taken: ReadonlySet<string>;
}

export async function existingClaimInstance(
  ctx: GceContext,
  owner: Owner,
  claim: NodeClaimName,
  name: string,
): Promise<ClaimInstance> {
  const ours: CloudInstance[] = [];
  const taken = new Set<string>();
  for (const zone of ctx.config.zones) {
    let raw;
    try {
      raw = await readInstance(ctx, zone, name);
    } catch (err: unknown) {
      if (cloudErrorOf(err)?.name === 'InstanceNotFoundError') continue;
      throw err;
    }
    if (isGone(raw) || ownershipProblem(raw, owner, { nodeClaim: claim })) taken.add(zone);
    else ours.push(toCloudInstance(ctx.config.project, raw));
  }
  ours.sort((a, b) => (a.launchTime?.getTime() ?? 0) - (b.launchTime?.getTime() ?? 0));
  return { ...(ours[0] ? { ours: ours[0] } : {}), taken };
}
