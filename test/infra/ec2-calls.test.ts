// The `cloud` rows of infra/iam/calls.yml against what the EC2 adapter really sends: each CloudProvider method,
// and the pricing function's PriceSource, runs against the EC2 emulator. Every call it makes must be one its row
// declares (a role derived from the table never lacks an action), and every call a row declares must be seen
// (a role never grants one its code path does not make): the rows are exact, so the roles are
// (test/infra/template.test.ts). Instance types are priced as every pass and launcher prices them, from a lookup
// handed in (the stored price book): no price API is the provider's.
import { uniformGang } from '../../shared/ports/cloud-provider/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ec2PriceSource } from '../../shared/adapters/aws-ec2/price-source.ts';
import { createPricingClient } from '../../shared/adapters/aws-ec2/pricing.ts';
import { parseEc2ProviderConfig } from '../../shared/config/aws-ec2.ts';
import type { ProviderId } from '../../shared/ports/cloud-provider/index.ts';
import type { PriceLookup } from '../../shared/ports/price-store.ts';
import { claim } from '../contracts/cloud-provider/contract.ts';
import {
  credentials,
  ec2NodeClass,
  lookupOf,
  startEc2Rig,
  type Ec2Rig,
} from '../integration/clouds/ec2-setup.ts';
import { readCallTable, readEc2Permissions } from './support/derive.ts';

const table = readCallTable();
/** Every call seen per row, over all the cases below: each row must equal it in the end. */
const seen = new Map<string, Set<string>>();
let rig: Ec2Rig;
let book: PriceLookup;
let source: Ec2PriceSource;
beforeAll(async () => {
  rig = await startEc2Rig();
  const config = parseEc2ProviderConfig({ clusterName: 'test', region: 'us-east-1' });
  const pricing = createPricingClient(config, { endpoint: rig.emulator.endpoint, credentials });
  source = new Ec2PriceSource({ ec2: rig.ec2, pricing, config, clock: { now: () => new Date() } });
  book = lookupOf(await source.prices());
});
afterAll(() => rig.close());

/** The API calls `act` makes, in order of first use, recorded against `method`'s row. */
async function callsOf(method: string, act: () => Promise<unknown>): Promise<string[]> {
  rig.emulator.world.calls.length = 0;
  await act();
  const calls = [...new Set(rig.emulator.world.calls)];
  const row = seen.get(method) ?? new Set<string>();
  for (const c of calls) row.add(c);
  seen.set(method, row);
  return calls;
}

const expectDeclared = (method: string, calls: readonly string[]) => {
  expect(calls.length, `${method} made no call`).toBeGreaterThan(0);
  for (const call of calls) expect(table.cloud[method] ?? [], `${method} → ${call}`).toContain(call);
};

describe('each CloudProvider method calls exactly what infra/iam/calls.yml declares for it', () => {
  // Capacity reservations are resolved only when the node class selects some: use such a class throughout.
  const nodeClass = () => ec2NodeClass({ capacityReservationSelectorTerms: [{ tags: { team: 'ml' } }] });
  const priced = { prices: () => Promise.resolve(book) };
  let launched: ProviderId | undefined;

  it('instanceTypes, priced from the stored book: no price API', async () => {
    const calls = await callsOf('instanceTypes', () => rig.provider.instanceTypes(nodeClass(), priced));
    expectDeclared('instanceTypes', calls);
    expect(calls).not.toContain('GetProducts');
    expect(calls).not.toContain('DescribeSpotPriceHistory');
  });

  it('create (a first launch creates its launch template; a second reuses it)', async () => {
    const types = await rig.provider.instanceTypes(nodeClass(), priced);
    for (const name of ['calls-1', 'calls-2']) {
      const calls = await callsOf('create', async () => {
        const { instance } = await rig.provider.create({
          claim: claim(name),
          nodeClass: nodeClass(),
          instanceTypes: types,
        });
        launched ??= instance.providerId;
      });
      expect(calls).toContain('CreateFleet');
      expectDeclared('create', calls);
    }
    expect([...(seen.get('create') ?? [])]).toContain('CreateLaunchTemplate');
  });

  it('createGang (names each member with CreateTags; a partial gang left before is terminated)', async () => {
    const types = await rig.provider.instanceTypes(nodeClass(), priced);
    const gang = (name: string) =>
      uniformGang(name, [claim(`${name}-g1`), claim(`${name}-g2`)], nodeClass(), types);
    const calls = await callsOf('createGang', () => rig.provider.createGang(gang('ml-calls')));
    expect(calls).toContain('CreateTags');
    expectDeclared('createGang', calls);
    // An earlier attempt left one of two members: the retry terminates it first (docs/mechanisms/gangs.md).
    const partial = await rig.provider.createGang(
      uniformGang('ml-partial', [claim('ml-partial-g1')], nodeClass(), types),
    );
    const [left] = partial.instances;
    expect(left).toBeDefined();
    const retried = await callsOf('createGang', () =>
      rig.provider.createGang(gang('ml-partial')).catch((e: unknown) => e),
    );
    expect(retried).toContain('TerminateInstances');
    expectDeclared('createGang', retried);
  });

  it('get, list, isDrifted, delete', async () => {
    const id = launched as ProviderId;
    expectDeclared('get', await callsOf('get', () => rig.provider.get(id)));
    expectDeclared('list', await callsOf('list', () => rig.provider.list()));
    const c = claim('calls-1');
    c.status = { providerID: id };
    expectDeclared('isDrifted', await callsOf('isDrifted', () => rig.provider.isDrifted(c, nodeClass())));
    const calls = await callsOf('delete', () => rig.provider.delete(id));
    expect(calls).toContain('TerminateInstances');
    expectDeclared('delete', calls);
  });

  it('describeNodeClass (lifecycle’s node-class status): its images, subnets and security groups', async () => {
    const describe = rig.provider.describeNodeClass.bind(rig.provider);
    const calls = await callsOf('describeNodeClass', () => describe(nodeClass()));
    expect([...calls].sort()).toEqual(['DescribeImages', 'DescribeSecurityGroups', 'DescribeSubnets']);
    expectDeclared('describeNodeClass', calls);
  });

  it('prices (the pricing function’s PriceSource): offerings, then both price APIs', async () => {
    const calls = await callsOf('prices', () => source.prices());
    expect(calls).toEqual(['DescribeInstanceTypeOfferings', 'GetProducts', 'DescribeSpotPriceHistory']);
    expectDeclared('prices', calls);
  });

  it('no row declares a call its method was never seen to make (a role would grant an unused action)', () => {
    for (const [method, calls] of Object.entries(table.cloud))
      expect([...(seen.get(method) ?? [])].sort(), `calls.yml cloud.${method}`).toEqual([...calls].sort());
  });

  it('every declared call has a row, with its IAM actions, in aws-ec2/PERMISSIONS.md', () => {
    const rows = readEc2Permissions();
    for (const [method, calls] of Object.entries(table.cloud))
      for (const call of calls) expect(rows.get(call)?.length ?? 0, `${method} → ${call}`).toBeGreaterThan(0);
  });
});
