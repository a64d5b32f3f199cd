// The `cloud` rows of infra/iam/calls.yml against what the EC2 provider really sends: each CloudProvider
// method runs against the EC2 emulator, and every API call it makes must be one its row declares, so a role
// derived from the table (test/infra/template.test.ts) never lacks an action a function's code path needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderId } from '../../shared/ports/cloud-provider/index.ts';
import { claim } from '../contracts/cloud-provider/contract.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from '../integration/clouds/ec2-setup.ts';
import { readCallTable, readEc2Permissions } from './support/derive.ts';

const table = readCallTable();
let rig: Ec2Rig;
beforeAll(async () => {
  rig = await startEc2Rig();
});
afterAll(() => rig.close());

/** The API calls `act` makes, in order of first use. */
async function callsOf(act: () => Promise<unknown>): Promise<string[]> {
  rig.emulator.world.calls.length = 0;
  await act();
  return [...new Set(rig.emulator.world.calls)];
}

const expectDeclared = (method: string, calls: readonly string[]) => {
  expect(calls.length, `${method} made no call`).toBeGreaterThan(0);
  for (const call of calls) expect(table.cloud[method] ?? [], `${method} → ${call}`).toContain(call);
};

describe('each CloudProvider method calls only what infra/iam/calls.yml declares for it', () => {
  // Capacity reservations are resolved only when the node class selects some: use such a class throughout.
  const nodeClass = () => ec2NodeClass({ capacityReservationSelectorTerms: [{ tags: { team: 'ml' } }] });
  let launched: ProviderId | undefined;

  it('instanceTypes', async () => {
    expectDeclared('instanceTypes', await callsOf(() => rig.provider.instanceTypes(nodeClass())));
  });

  it('create (a first launch creates its launch template)', async () => {
    const types = await rig.provider.instanceTypes(nodeClass());
    const calls = await callsOf(async () => {
      const { instance } = await rig.provider.create({
        claim: claim('calls-1'),
        nodeClass: nodeClass(),
        instanceTypes: types,
      });
      launched = instance.providerId;
    });
    expect(calls).toEqual(expect.arrayContaining(['CreateLaunchTemplate', 'CreateFleet']));
    expectDeclared('create', calls);
  });

  it('createGang (names each member with CreateTags)', async () => {
    const types = await rig.provider.instanceTypes(nodeClass());
    const calls = await callsOf(() =>
      rig.provider.createGang({
        gang: 'ml/calls',
        claims: [claim('calls-g1'), claim('calls-g2')],
        nodeClass: nodeClass(),
        instanceTypes: types,
      }),
    );
    expect(calls).toContain('CreateTags');
    expectDeclared('createGang', calls);
  });

  it('get, list, isDrifted, delete', async () => {
    const id = launched as ProviderId;
    expectDeclared('get', await callsOf(() => rig.provider.get(id)));
    expectDeclared('list', await callsOf(() => rig.provider.list()));
    const c = claim('calls-1');
    c.status = { providerID: id };
    expectDeclared('isDrifted', await callsOf(() => rig.provider.isDrifted(c, nodeClass())));
    const calls = await callsOf(() => rig.provider.delete(id));
    expect(calls).toContain('TerminateInstances');
    expectDeclared('delete', calls);
  });

  it('every declared call has a row, with its IAM actions, in aws-ec2/PERMISSIONS.md', () => {
    const rows = readEc2Permissions();
    for (const [method, calls] of Object.entries(table.cloud))
      for (const call of calls) expect(rows.get(call)?.length ?? 0, `${method} → ${call}`).toBeGreaterThan(0);
  });
});
