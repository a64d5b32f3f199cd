// The `gce` rows of infra/iam/calls.yml against what the Compute Engine adapter really sends: each CloudProvider
// method, lifecycle's preemption read and the pricing function's PriceSource run against the Compute Engine
// emulator. Every call a method makes must be one its row declares (a Google custom role derived from the table
// never lacks a permission), and every call a row declares must be seen (a role never grants one its code path
// does not make): the rows are exact, so the roles in infra/gcp/roles/ are (test/infra/template.test.ts).
import { uniformGang } from '../../shared/ports/cloud-provider/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GcePriceSource } from '../../shared/adapters/gcp-compute/price-source.ts';
import { parseGceProviderConfig } from '../../shared/config/gcp-compute.ts';
import { rowsLookup } from '../../shared/loop/prices.ts';
import type { ProviderId } from '../../shared/ports/cloud-provider/index.ts';
import type { PriceLookup } from '../../shared/ports/price-store.ts';
import { claim } from '../contracts/cloud-provider/contract.ts';
import { ZONES, gceNodeClass, startGceRig, type GceRig } from '../integration/clouds/gce-setup.ts';
import { readCallTable, readGcePermissions } from './support/derive.ts';

const table = readCallTable();
/** Every call seen per row, over all the cases below: each row must equal it in the end. */
const seen = new Map<string, Set<string>>();
let rig: GceRig;
let source: GcePriceSource;
let book: PriceLookup;

/** The emulator's "METHOD /path" as the Compute Engine (or Cloud Billing) API method it is. */
function apiCall(request: string): string {
  const [method, path = ''] = request.split(' ');
  if (path.endsWith('/skus')) return 'services.skus.list';
  if (/\/aggregated\/instances$/.test(path)) return 'instances.aggregatedList';
  const p = /\/zones\/[^/]+\/(\w+)(?:\/([^/]+))?(?:\/(\w+))?$/.exec(path);
  const [kind, name, verb] = [p?.[1], p?.[2], p?.[3]];
  const resource = kind === 'operations' ? 'zoneOperations' : kind;
  if (method === 'POST' && name === 'bulkInsert') return 'instances.bulkInsert';
  if (method === 'POST' && verb === 'wait') return `${resource}.wait`;
  if (method === 'POST' && !name) return `${resource}.insert`;
  if (method === 'DELETE') return `${resource}.delete`;
  if (method === 'GET') return name ? `${resource}.get` : `${resource}.list`;
  throw new Error(`the Compute Engine emulator received ${request}, which this test cannot name`);
}

/** The API calls `act` makes, in order of first use, recorded against `method`'s row. */
async function callsOf(method: string, act: () => Promise<unknown>): Promise<string[]> {
  rig.emulator.world.calls.length = 0;
  await act();
  const calls = [...new Set(rig.emulator.world.calls.map(apiCall))];
  const row = seen.get(method) ?? new Set<string>();
  for (const c of calls) row.add(c);
  seen.set(method, row);
  return calls;
}

const expectDeclared = (method: string, calls: readonly string[]) => {
  expect(calls.length, `${method} made no call`).toBeGreaterThan(0);
  for (const call of calls) expect(table.gce[method] ?? [], `${method} → ${call}`).toContain(call);
};

beforeAll(async () => {
  rig = await startGceRig({ emulator: { waitBudgetMs: 20 }, operationTimeoutMs: 60_000 });
  const config = parseGceProviderConfig({
    clusterName: 'test',
    project: 'kraftsman-test',
    region: 'us-central1',
    zones: [...ZONES],
  });
  source = new GcePriceSource({ clients: rig.clients, billing: rig.billing, config });
  book = rowsLookup(await source.prices(), 'gcp');
  // A launch's operation is still running when insert answers, so the adapter waits on it (as on Google).
  rig.emulator.world.faults.operationDelayMs = 30;
});
afterAll(() => rig.close());

const g2 = [{ key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['g2-standard-4'] }];
const gceClaim = (name: string) => {
  const c = claim(name, g2);
  c.spec.nodeClassRef = { group: 'karpenter.k8s.gcp', kind: 'GCENodeClass', name: 'default' };
  return c;
};

describe('each CloudProvider method calls exactly what infra/iam/calls.yml declares for it (gce:)', () => {
  const priced = { prices: () => Promise.resolve(book) };
  let launched: ProviderId | undefined;

  it('instanceTypes, priced from the stored book: no billing call', async () => {
    const calls = await callsOf('instanceTypes', () => rig.provider.instanceTypes(gceNodeClass(), priced));
    expectDeclared('instanceTypes', calls);
    expect(calls).not.toContain('services.skus.list');
  });

  it('create (looks the claim up first, inserts, waits, reads the instance back)', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass(), priced);
    const calls = await callsOf('create', async () => {
      const { instance } = await rig.provider.create({
        claim: gceClaim('calls-1'),
        nodeClass: gceNodeClass(),
        instanceTypes: types,
      });
      launched = instance.providerId;
    });
    expect(calls).toContain('instances.insert');
    expect(calls).toContain('zoneOperations.wait');
    expectDeclared('create', calls);
  });

  it('createGang (bulkInsert; a partial gang left before is deleted)', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass(), priced);
    const gang = (name: string, members: number) =>
      uniformGang(
        name,
        Array.from({ length: members }, (_, i) => gceClaim(`${name}-g${i + 1}`)),
        gceNodeClass(),
        types,
      );
    const calls = await callsOf('createGang', () => rig.provider.createGang(gang('ml-calls', 2)));
    expect(calls).toContain('instances.bulkInsert');
    expectDeclared('createGang', calls);
    // An earlier attempt left one of two members: the retry deletes it first (docs/mechanisms/gangs.md).
    await rig.provider.createGang(gang('ml-partial', 1));
    const retried = await callsOf('createGang', () =>
      rig.provider.createGang(gang('ml-partial', 2)).catch((e: unknown) => e),
    );
    expect(retried).toContain('instances.delete');
    expectDeclared('createGang', retried);
  });

  it('get, list, isDrifted, interruptions, delete', async () => {
    const id = launched as ProviderId;
    expectDeclared('get', await callsOf('get', () => rig.provider.get(id)));
    expectDeclared('list', await callsOf('list', () => rig.provider.list()));
    const c = gceClaim('calls-1');
    c.status = { providerID: id };
    expectDeclared('isDrifted', await callsOf('isDrifted', () => rig.provider.isDrifted(c, gceNodeClass())));
    expectDeclared(
      'interruptions',
      await callsOf('interruptions', () => rig.provider.interruptions(new Date(0))),
    );
    const calls = await callsOf('delete', () => rig.provider.delete(id));
    expect(calls).toContain('instances.delete');
    expectDeclared('delete', calls);
  });

  it('prices (the pricing function’s PriceSource): machine and accelerator types, then the billing catalog', async () => {
    const calls = await callsOf('prices', () => source.prices());
    expect(calls).toEqual(['machineTypes.list', 'acceleratorTypes.list', 'services.skus.list']);
    expectDeclared('prices', calls);
  });

  it('no row declares a call its method was never seen to make (a role would grant an unused permission)', () => {
    for (const [method, calls] of Object.entries(table.gce))
      expect([...(seen.get(method) ?? [])].sort(), `calls.yml gce.${method}`).toEqual([...calls].sort());
  });

  it('every declared call has a row in gcp-compute/PERMISSIONS.md (the billing catalog needs none)', () => {
    const rows = readGcePermissions();
    for (const [method, calls] of Object.entries(table.gce))
      for (const call of calls) {
        expect(rows.has(call), `${method} → ${call}`).toBe(true);
        if (call !== 'services.skus.list')
          expect(rows.get(call)?.length ?? 0, `${method} → ${call}`).toBeGreaterThan(0);
      }
  });
});
