// An atomic ProvisioningRequest's claims, created and launched as one gang (docs/mechanisms/provisioning-requests.md,
// "In the loop"): each claim carries the request's name (REQUEST_ANNOTATION), so a pass that died between the launch
// and the status patch finds them and does not launch the request twice.
import type { NewClaim } from '../scheduling/new-claim.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { claimName } from '../provisioning/nodeclaims.ts';
import { REQUEST_ANNOTATION } from '../provisioning/request-booking.ts';
import type { Fence } from '../ports/state-store/records.ts';
import type { BatchDeps } from './provision-batch.ts';
import { createClaim } from './claim-create.ts';
import { invokeLaunchers, type LaunchUnitMember } from './launch-invoke.ts';
import { inParallel } from './parallel.ts';

const PARALLELISM = 16;

/**
 * Creates every claim of the request (the launch record first, as a batch does) with one gang launch id, then
 * invokes the launcher once for them: the gang launch of both clouds makes it all or nothing (CreateFleet
 * MinTargetCapacity / bulkInsert minCount; docs/mechanisms/gangs.md). Returns the claims' names.
 */
export async function launchRequest(
  deps: BatchDeps,
  fence: Fence,
  snapshot: ClusterSnapshot,
  request: string,
  claims: readonly NewClaim[],
): Promise<{ readonly names: readonly string[]; readonly launches: number }> {
  const gang = `${request.replace(/[^a-z0-9-]/gi, '-').toLowerCase()}-${claimName('g', deps.nonce()).slice(2)}`;
  const placed = claims.map((c) => {
    const view = snapshot.nodePools.get(c.template.nodePool);
    // answerRequest opens claims only in Ready pools, each of which has its node class
    if (!view?.nodeClass) throw new Error(`NodePool ${c.template.nodePool} has no node class for ${request}`);
    return {
      c,
      pool: view.pool,
      nodeClass: view.nodeClass,
      name: claimName(c.template.nodePool, deps.nonce()),
    };
  });
  const created = await inParallel(
    placed,
    PARALLELISM,
    async ({ c, pool, nodeClass, name }): Promise<LaunchUnitMember> => {
      await createClaim(
        deps,
        fence,
        { c, pool, name, gang, annotations: { [REQUEST_ANNOTATION]: request } },
        { message: 'created NodeClaim for a ProvisioningRequest', fields: { request } },
      );
      return { name, cloud: c.template.cloud, nodeClass, gang };
    },
  );
  const launches = await invokeLaunchers(deps.invoker, fence, created, PARALLELISM);
  return { names: created.map((c) => c.name), launches };
}
