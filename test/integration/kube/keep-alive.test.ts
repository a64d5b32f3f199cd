// The kube adapter keeps its connections to the API server alive (shared/adapters/kube/agents.ts): client-node
// gives every request a new agent, which alone would open a connection per call.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pooledAgent } from '../../../shared/adapters/kube/agents.ts';
import { SNAPSHOT_KINDS } from '../../../shared/ports/cluster/index.ts';
import { node, pod, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
  h.emulator.seed([
    node('n1'),
    node('n2'),
    pod('ns', 'p1', { spec: { nodeName: 'n1', containers: [{ name: 'c' }] } }),
  ]);
});
afterEach(() => h.close());

describe('keep-alive', () => {
  it('sends one after another call of the adapter over one connection', async () => {
    const cluster = h.cluster();
    for (let i = 0; i < 10; i++) {
      await cluster.getNode('n1');
      await cluster.listPodsOnNode('n1');
    }
    await cluster.addTaint('n2', { key: 'example.com/t', effect: 'NoSchedule' });
    expect(h.emulator.stats.requests).toBeGreaterThanOrEqual(22);
    expect(h.emulator.stats.connections).toBe(1);
  });

  it('reads a cold snapshot, its kinds in parallel and paged, over a connection per kind at most', async () => {
    await h.cluster({ pageSize: 1 }).readSnapshot();
    expect(h.emulator.stats.requests).toBeGreaterThan(SNAPSHOT_KINDS.length);
    expect(h.emulator.stats.connections).toBeLessThanOrEqual(SNAPSHOT_KINDS.length);
  });

  it('pools agents by their TLS options, and leaves a proxy agent alone', () => {
    const a = pooledAgent(new HttpsAgent({ rejectUnauthorized: false, ca: Buffer.from('ca-1') }));
    expect(pooledAgent(new HttpsAgent({ rejectUnauthorized: false, ca: Buffer.from('ca-1') }))).toBe(a);
    expect(pooledAgent(new HttpsAgent({ rejectUnauthorized: false, ca: Buffer.from('ca-2') }))).not.toBe(a);
    expect(pooledAgent(new HttpAgent({}))).not.toBe(a);
    expect((a as HttpsAgent).options).toMatchObject({ keepAlive: true, rejectUnauthorized: false });
    // client-node's proxy agents (hpagent, socks-proxy-agent) subclass the plain ones.
    class ProxyAgent extends HttpAgent {}
    const proxy = new ProxyAgent({});
    expect(pooledAgent(proxy)).toBe(proxy);
    expect(pooledAgent(undefined)).toBeUndefined();
  });
});
