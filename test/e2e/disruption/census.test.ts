// The census through its handler against the kube emulator, the EC2 and GCE emulators and DynamoDB Local:
// every candidate simulated and none acted on, one stored result per NodePool, the per-pool/decision counts
// read back from the EMF documents the handler flushed, an overlapping start held, a sweep its budget cut
// short (by its own budget or by the invocation's remaining time) saying how many it left unsimulated, and a
// malformed event refused naming its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { emptyNode } from '../../support/e2e/disruption-handlers.ts';
import { liveInstances, nodesOf, underusedNode } from '../../support/e2e/disruption-world.ts';
import { censusContainer, emfValue, tickingClock } from '../../support/e2e/census.ts';
import {
  lambdaContext,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';

const ACTIONABLE = LOOP_METRICS.consolidationActionableCandidates;

describe('census through its handler', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'census' });
    wireLaunchers(h);
  });
  // pool-spare: a big node with two small pods and an empty g5.xlarge beside it — the empty node is
  // emptiness's, and the big node's pods fit on it (a delete). pool-shrink: a big node a g5.xlarge can replace.
  // Grown once, by whichever test runs first (underusedNode polls, which vitest allows inside a test only).
  let fleet: Promise<{ spare: string; replace: string }> | undefined;
  const grow = () =>
    (fleet ??= (async () => {
      const spare = await underusedNode(h, 'spare');
      h.seed([emptyNode('spare-xl', spare.pool)]);
      const shrink = await underusedNode(h, 'shrink');
      return { spare: spare.pool, replace: shrink.pool };
    })());
  afterAll(async () => {
    await h?.close();
  });

  it('simulates every candidate, acts on none, stores the counts and publishes them per pool and decision', async () => {
    const pools = await grow();
    const before = { nodes: h.list('Node').length, instances: liveInstances(h).length };
    const c = censusContainer(h);
    const r = await c.handler(scheduledEvent(h.clock), lambdaContext('census'));
    expect(r).toEqual({
      outcome: 'ran',
      candidates: 3,
      truncated: false,
      unreached: 0,
      nodePools: 2,
      shards: 0,
      failedShards: [],
    });

    const stored = await h.store().listCensus(h.clusterName);
    const byPool = new Map(stored.map((s) => [s.nodePool, s]));
    // by decision: the underused node and the empty one are both deletes; emptiness decides one of them
    expect(byPool.get(pools.spare)?.counts).toEqual({
      delete: 2,
      replace: 0,
      none: 0,
      empty: 1,
      drifted: 0,
      unreached: 0,
    });
    expect(byPool.get(pools.replace)?.counts).toMatchObject({ delete: 0, replace: 1, empty: 0, none: 0 });

    for (const [nodepool, del, rep] of [
      [pools.spare, 2, 0],
      [pools.replace, 0, 1],
    ] as const) {
      expect(emfValue(c.emf, ACTIONABLE, { nodepool, decision: 'delete' })).toBe(del);
      expect(emfValue(c.emf, ACTIONABLE, { nodepool, decision: 'replace' })).toBe(rep);
    }
    const nodes = KRAFTSMAN_METRICS.censusNodes;
    expect(emfValue(c.emf, nodes, { nodepool: pools.spare, decision: 'empty' })).toBe(1);
    expect(emfValue(c.emf, KRAFTSMAN_METRICS.censusCandidates, { nodepool: pools.spare })).toBe(2);
    expect(emfValue(c.emf, KRAFTSMAN_METRICS.censusTruncated)).toBe(0);
    expect(emfValue(c.emf, LOOP_METRICS.censusUnreached)).toBe(0);
    expect(emfValue(c.emf, LOOP_METRICS.censusDurationSeconds)).toEqual(expect.any(Number));

    // Acted on none: the same nodes and instances, no taint, no claim beyond the fleet's, no command.
    expect({ nodes: h.list('Node').length, instances: liveInstances(h).length }).toEqual(before);
    expect(h.list('Node').flatMap((n) => (n.spec as { taints?: unknown[] }).taints ?? [])).toEqual([]);
    expect(nodesOf(h, pools.spare)).toHaveLength(2);
    expect(await h.store().listCommandsByStatus(h.clusterName, 'launching')).toEqual([]);
  });

  it('of two overlapping invocations one sweeps; the other returns held at once and stores nothing', async () => {
    await grow();
    const c = censusContainer(h);
    const [a, b] = await Promise.all([
      c.handler(scheduledEvent(h.clock), lambdaContext('census')),
      c.handler(scheduledEvent(h.clock), lambdaContext('census')),
    ]);
    expect([a.outcome, b.outcome].sort()).toEqual(['held', 'ran']);
    expect([a, b].find((x) => x.outcome === 'held')).toMatchObject({ reason: 'held', holder: /\./ });

    // A sweep in progress elsewhere (the lease taken by another attempt): this start is held.
    const store = h.store();
    const other = await store.acquireLease({
      cluster: h.clusterName,
      name: 'census',
      owner: 'req-elsewhere.nonce-1',
      ttlMs: 60_000,
    });
    const at = (await store.listCensus(h.clusterName))[0]?.at;
    h.clock.advance(1_000);
    const held = await c.handler(scheduledEvent(h.clock), lambdaContext('census'));
    expect(held).toEqual({ outcome: 'held', holder: 'req-elsewhere.nonce-1', reason: 'held' });
    expect((await store.listCensus(h.clusterName))[0]?.at).toEqual(at);
    await store.releaseLease(other);

    const event = scheduledEvent(h.clock);
    expect(await c.handler(event, lambdaContext('census'))).toMatchObject({ outcome: 'ran' });
    expect(await c.handler(event, lambdaContext('census'))).toMatchObject({
      outcome: 'held',
      reason: 'same-run',
    });
  });

  it('a sweep its budget cuts short is truncated and says how many candidates it left unsimulated', async () => {
    await grow();
    // Each read of this clock is a millisecond: a 3 ms budget runs out after the first simulations.
    const c = censusContainer(h, { sweepBudgetMs: 3, clock: tickingClock(h.clock) });
    const r = await c.handler(scheduledEvent(h.clock), lambdaContext('census'));
    if (r.outcome !== 'ran') throw new Error(`census held by ${r.holder}`);
    expect(r.truncated).toBe(true);
    expect(r.unreached).toBeGreaterThan(0);
    expect(r.unreached).toBeLessThan(3);
    expect(r.candidates).toBe(3);
    expect(emfValue(c.emf, KRAFTSMAN_METRICS.censusTruncated)).toBe(1);
    expect(emfValue(c.emf, LOOP_METRICS.censusUnreached)).toBe(r.unreached);
    expect(emfValue(c.emf, LOOP_METRICS.censusTruncatedTotal)).toBe(1);
    const stored = await h.store().listCensus(h.clusterName);
    expect(stored.reduce((n, s) => n + (s.counts.unreached ?? 0), 0)).toBe(r.unreached);
  });

  it('cuts its budget to what the invocation has left (less 30 s to store and flush)', async () => {
    await grow();
    const c = censusContainer(h, { clock: tickingClock(h.clock) }); // the 5-minute default budget
    const context = { ...lambdaContext('census'), getRemainingTimeInMillis: () => 30_003 };
    const r = await c.handler(scheduledEvent(h.clock), context);
    if (r.outcome !== 'ran') throw new Error(`census held by ${r.holder}`);
    expect(r).toMatchObject({ truncated: true, candidates: 3 });
    expect(r.unreached).toBeGreaterThan(0);
    expect(emfValue(c.emf, LOOP_METRICS.censusUnreached)).toBe(r.unreached);
    // With the time to spare, the same container sweeps everything.
    const full = await c.handler(scheduledEvent(h.clock), lambdaContext('census'));
    expect(full).toMatchObject({ outcome: 'ran', truncated: false, unreached: 0 });
  });

  it('refuses a malformed event naming its field, before it builds anything', async () => {
    const c = censusContainer(h);
    const bad = { ...scheduledEvent(h.clock), 'detail-type': 'Object Created' };
    await expect(c.handler(bad, lambdaContext('census'))).rejects.toThrow(/census event: detail-type/);
    await expect(c.handler(bad, lambdaContext('census'))).rejects.toHaveProperty('name', 'InvalidEventError');
    await expect(c.handler(scheduledEvent(h.clock), {})).rejects.toThrow(/Lambda context: awsRequestId/);
  });
});
