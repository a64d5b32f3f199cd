// Proof that an EC2 instance is this deployment's before it is terminated or adopted
// (docs/mechanisms/identity.md#instances). An EC2 providerID names no account, so the account is the
// reservation's OwnerId, checked against the deployment's when one is configured; then the zone the providerID
// names, this cluster's and this deployment's tags, and, when the caller recorded one, the claim's tag.
import type { Instance } from '@aws-sdk/client-ec2';
import { OwnershipError } from '../../ports/cloud-provider/errors.ts';
import type { DeleteExpectation } from '../../ports/cloud-provider/index.ts';
import { TAG_CLUSTER, TAG_DEPLOYMENT, TAG_NODECLAIM, instanceIdOf } from './instances.ts';

export interface Owner {
  readonly cluster: string;
  readonly deployment: string;
  /** The AWS account the deployment runs in; unchecked when not configured. */
  readonly accountId?: string;
}

/** The instance id of an EC2 providerID; a malformed one is refused, never described. */
export function ownedInstanceId(id: string): string {
  try {
    return instanceIdOf(id);
  } catch (err: unknown) {
    throw new OwnershipError(err instanceof Error ? err.message : String(err), 'malformed-provider-id', id, {
      cause: err,
    });
  }
}

type Problem = { reason: OwnershipError['reason']; detail: string };

function accountProblem(ownerId: string | undefined, owner: Owner): Problem | undefined {
  if (owner.accountId === undefined || ownerId === owner.accountId) return undefined;
  return {
    reason: 'foreign-project',
    detail: `its reservation's owner is ${ownerId ?? 'not given'}, not this deployment's account ${owner.accountId}`,
  };
}

/** Why `i` is not the owner's (or not the expected one), or undefined when it is. */
export function ownershipProblem(
  id: string,
  i: Instance,
  ownerId: string | undefined,
  owner: Owner,
  expect: DeleteExpectation = {},
): Problem | undefined {
  const account = accountProblem(ownerId, owner);
  if (account) return account;
  const tags = Object.fromEntries((i.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));
  const zone = /^aws:\/\/\/([^/]+)\//.exec(id)?.[1];
  if (zone !== undefined && i.Placement?.AvailabilityZone !== zone)
    return {
      reason: 'instance-mismatch',
      detail: `it runs in ${i.Placement?.AvailabilityZone}, not ${zone}`,
    };
  if (tags[TAG_CLUSTER] !== owner.cluster)
    return {
      reason: 'foreign-cluster',
      detail: `its ${TAG_CLUSTER} tag is ${JSON.stringify(tags[TAG_CLUSTER] ?? null)}, not ${owner.cluster}`,
    };
  if (tags[TAG_DEPLOYMENT] !== owner.deployment)
    return {
      reason: 'foreign-deployment',
      detail: `its ${TAG_DEPLOYMENT} tag is ${JSON.stringify(tags[TAG_DEPLOYMENT] ?? null)}, not this deployment's ${owner.deployment}`,
    };
  if (expect.nodeClaim !== undefined && tags[TAG_NODECLAIM] !== expect.nodeClaim)
    return {
      reason: 'instance-mismatch',
      detail: `its ${TAG_NODECLAIM} tag is ${JSON.stringify(tags[TAG_NODECLAIM] ?? null)}, not ${expect.nodeClaim}`,
    };
  return undefined;
}

/** Throws OwnershipError naming the instance and the rule when `i` is not the owner's to terminate. */
export function assertOwned(
  id: string,
  i: Instance,
  ownerId: string | undefined,
  owner: Owner,
  expect?: DeleteExpectation,
): void {
  const problem = ownershipProblem(id, i, ownerId, owner, expect);
  if (problem)
    throw new OwnershipError(
      `EC2 instance ${id} is not this deployment's to terminate: ${problem.detail}`,
      problem.reason,
      id,
    );
}
