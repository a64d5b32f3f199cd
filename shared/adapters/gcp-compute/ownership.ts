// Proof that a Compute Engine instance is this deployment's before it is deleted or adopted
// (docs/mechanisms/identity.md#instances): the providerID names this project, the instance carries this
// cluster's and this deployment's labels, and, when the caller recorded one, its NodeClaim.
import type { protos } from '@google-cloud/compute';
import { OwnershipError } from '../../ports/cloud-provider/errors.ts';
import type { DeleteExpectation } from '../../ports/cloud-provider/index.ts';
import {
  LABEL_CLUSTER,
  LABEL_DEPLOYMENT,
  LABEL_NODECLAIM,
  META_NODECLAIM,
  instanceName,
  labelValue,
  metadataItem,
  parseGceProviderId,
} from './instances.ts';

type Instance = protos.google.cloud.compute.v1.IInstance;

/** Zone and name of a providerID in `project`; a malformed one or another project's is refused, never read. */
export function ownedLocation(project: string, id: string): { zone: string; name: string } {
  let parsed: ReturnType<typeof parseGceProviderId>;
  try {
    parsed = parseGceProviderId(id);
  } catch (err: unknown) {
    throw new OwnershipError(err instanceof Error ? err.message : String(err), 'malformed-provider-id', id, {
      cause: err,
    });
  }
  if (parsed.project !== project)
    throw new OwnershipError(
      `Compute Engine instance ${id} is in project ${parsed.project}, not this deployment's ${project}`,
      'foreign-project',
      id,
    );
  return { zone: parsed.zone, name: parsed.name };
}

export interface Owner {
  readonly cluster: string;
  readonly deployment: string;
}

/** The claim an instance was launched for: its metadata, its label, or (a gang member) its name. */
function claimMatches(i: Instance, claim: string): boolean {
  const meta = metadataItem(i, META_NODECLAIM);
  if (meta !== undefined) return meta === claim;
  const label = i.labels?.[LABEL_NODECLAIM];
  if (label !== undefined && label !== null) return label === labelValue(claim);
  return i.name === instanceName(claim);
}

/** Why `i` is not the owner's (or not the expected claim's), or undefined when it is. */
export function ownershipProblem(
  i: Instance,
  owner: Owner,
  expect: DeleteExpectation = {},
): { reason: OwnershipError['reason']; detail: string } | undefined {
  const labels = i.labels ?? {};
  if (labels[LABEL_CLUSTER] !== labelValue(owner.cluster))
    return {
      reason: 'foreign-cluster',
      detail: `its ${LABEL_CLUSTER} label is ${JSON.stringify(labels[LABEL_CLUSTER] ?? null)}, not ${owner.cluster}`,
    };
  if (labels[LABEL_DEPLOYMENT] !== labelValue(owner.deployment))
    return {
      reason: 'foreign-deployment',
      detail: `its ${LABEL_DEPLOYMENT} label is ${JSON.stringify(labels[LABEL_DEPLOYMENT] ?? null)}, not this deployment's ${owner.deployment}`,
    };
  if (expect.nodeClaim !== undefined && !claimMatches(i, expect.nodeClaim))
    return { reason: 'instance-mismatch', detail: `it was not launched for NodeClaim ${expect.nodeClaim}` };
  return undefined;
}

/** Throws OwnershipError naming the instance and the rule when `i` is not the owner's to delete. */
export function assertOwned(id: string, i: Instance, owner: Owner, expect?: DeleteExpectation): void {
  const problem = ownershipProblem(i, owner, expect);
  if (problem)
    throw new OwnershipError(
      `Compute Engine instance ${id} is not this deployment's to delete: ${problem.detail}`,
      problem.reason,
      id,
    );
}
