// The identity part of the CloudProvider contract (docs/mechanisms/identity.md#instances): launches carry the
// deployment's id, list() shows only this deployment's instances, and delete() refuses — with OwnershipError and
// the rule's reason, leaving the instance running — anything not provably this deployment's or not the claim's.
import { expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import { nodeClaimName } from '../../../shared/model/names.ts';
import { OwnershipError, type OwnershipReason } from '../../../shared/ports/cloud-provider/errors.ts';
import { providerId, type ProviderId } from '../../../shared/ports/cloud-provider/index.ts';
import type { ContractSubject } from './contract.ts';

/** What a planted instance breaks: each is one of delete's rules. */
export const PLANT_RULES = [
  'foreign-project',
  'foreign-cluster',
  'foreign-deployment',
  'no-deployment',
] as const;
export type PlantRule = (typeof PLANT_RULES)[number];

const REASON: Record<PlantRule, OwnershipReason> = {
  'foreign-project': 'foreign-project',
  'foreign-cluster': 'foreign-cluster',
  'foreign-deployment': 'foreign-deployment',
  'no-deployment': 'foreign-deployment',
};

export function identityContract(
  subject: () => ContractSubject,
  types: () => readonly InstanceTypeSpec[],
  claim: (name: string, requirements?: NodeClaim['spec']['requirements']) => NodeClaim,
): void {
  const launch = async (name: string) => {
    const s = subject();
    return (await s.provider.create({ claim: claim(name), nodeClass: s.nodeClass, instanceTypes: types() }))
      .instance;
  };
  const refusal = async (id: ProviderId, expectClaim?: string): Promise<unknown> =>
    subject()
      .provider.delete(id, expectClaim ? { nodeClaim: nodeClaimName(expectClaim) } : undefined)
      .catch((e: unknown) => e);

  it('labels every launch with its deployment id', async () => {
    const instance = await launch('identity-tagged');
    expect(instance.tags[subject().deploymentKey]).toBe(subject().deployment);
    const listed = (await subject().provider.list()).find((i) => i.providerId === instance.providerId);
    expect(listed?.tags[subject().deploymentKey]).toBe(subject().deployment);
  });

  for (const rule of PLANT_RULES)
    it(`refuses to delete an instance that breaks ${rule}, with reason ${REASON[rule]}, and leaves it running`, async () => {
      const s = subject();
      const id = await s.plant(rule, `planted-${rule}`, s.zones[0]);
      const before = await s.liveInstances();
      const error = await refusal(id, `planted-${rule}`);
      expect(error).toBeInstanceOf(OwnershipError);
      expect((error as OwnershipError).reason).toBe(REASON[rule]);
      expect(await s.liveInstances()).toBe(before);
      if (rule !== 'foreign-project')
        expect((await s.provider.list()).map((i) => i.providerId)).not.toContain(id);
    });

  it('refuses to delete its own instance when the caller expects another claim, and deletes it for its own', async () => {
    const instance = await launch('identity-mine');
    const error = await refusal(instance.providerId, 'identity-someone-else');
    expect(error).toBeInstanceOf(OwnershipError);
    expect((error as OwnershipError).reason).toBe('instance-mismatch');
    expect((await subject().provider.list()).map((i) => i.providerId)).toContain(instance.providerId);
    await subject().provider.delete(instance.providerId, { nodeClaim: nodeClaimName('identity-mine') });
    expect((await subject().provider.list()).map((i) => i.providerId)).not.toContain(instance.providerId);
  });

  it('refuses a providerID it cannot parse, naming the rule', async () => {
    const error = await refusal(providerId('i-not-a-provider-id'));
    expect(error).toBeInstanceOf(OwnershipError);
    expect((error as OwnershipError).reason).toBe('malformed-provider-id');
  });
}
