// NodeClaim and pod pagination past one page: every read loop of the adapter pages to the end of a LIST of
// more than 500 objects (the adapter's page size) while the server serves pages short or empty at random, as a
// real API server may (ListOptions.limit: "may return fewer than the requested amount of items (up to zero)").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { node, nodeClaim, pod, startHarness, type Harness } from './harness.ts';

let h: Harness;
const CLAIMS = 620;
const PODS = 640;
const NODES = 530;

beforeAll(async () => {
  h = await startHarness({ shortPages: { seed: 500 } });
  const pad = (i: number) => String(i).padStart(4, '0');
  h.emulator.seed([
    ...Array.from({ length: NODES }, (_, i) => node(`n${pad(i)}`)),
    ...Array.from({ length: CLAIMS }, (_, i) => nodeClaim(`c${pad(i)}`)),
    ...Array.from({ length: PODS }, (_, i) =>
      pod(i % 2 ? 'ml' : 'web', `p${pad(i)}`, { spec: { nodeName: 'n0001', containers: [{ name: 'c' }] } }),
    ),
    pod('ml', 'elsewhere', { spec: { nodeName: 'n0002', containers: [{ name: 'c' }] } }),
  ]);
});
afterAll(() => h.close());

describe('NodeClaim and pod pagination past one page', () => {
  it('lists every NodeClaim, Node and pod on a node, the last page included', async () => {
    const cluster = h.cluster();
    const claims = await cluster.listNodeClaims();
    expect(claims).toHaveLength(CLAIMS);
    expect(new Set(claims.map((c) => c.metadata.name)).size).toBe(CLAIMS);
    expect((await cluster.listNodes()).length).toBe(NODES);
    const pods = await cluster.listPodsOnNode('n0001');
    expect(pods).toHaveLength(PODS);
    expect(pods.every((p) => p.spec.nodeName === 'n0001')).toBe(true);
  });

  it('reads a pass snapshot of every object cold, and warm after changes past the first page', async () => {
    const cluster = h.cluster();
    const cold = await cluster.readSnapshot();
    expect(cold.objects.nodeClaims).toHaveLength(CLAIMS);
    expect(cold.objects.pods).toHaveLength(PODS + 1);
    expect(cold.objects.nodes).toHaveLength(NODES);
    h.emulator.store.delete(h.emulator.typeOf('NodeClaim'), undefined, 'c0600');
    const warm = await cluster.readSnapshot();
    expect(warm.reads.NodeClaim.mode).toBe('catch-up');
    expect(warm.objects.nodeClaims).toHaveLength(CLAIMS - 1);
  });
});
