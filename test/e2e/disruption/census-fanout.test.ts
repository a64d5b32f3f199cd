// The census fanned out across worker invocations, through both handlers (docs/mechanisms/census.md#fan-out):
// the census writes its snapshot to the S3 emulator through @aws-sdk/client-s3, invokes one census worker per
// shard (Event invocations, retried as Lambda retries them), and merges the shards stored in DynamoDB Local. A
// fleet cut into three shards counts what one invocation counts; a shard whose worker throws on every attempt
// counts its candidates unreached and is named in the result and the metrics; a shard delivered twice counts once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCensusWorkerHandler } from '../../../functions/census-worker/handler.ts';
import { startS3Emulator, type S3Emulator } from '../../../local/s3/server.ts';
import { InProcessInvoker } from '../../../shared/adapters/memory/invoker.ts';
import { createS3Client, S3SnapshotStore } from '../../../shared/adapters/s3/snapshot-store.ts';
import type { CensusShardRequest } from '../../../shared/loop/census-worker.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { EmfMetrics } from '../../../shared/observability/index.ts';
import { LOCAL_CREDENTIALS } from '../../support/dynamodb/credentials.ts';
import { emptyNode } from '../../support/e2e/disruption-handlers.ts';
import { underusedNode } from '../../support/e2e/disruption-world.ts';
import { censusContainer, emfValue } from '../../support/e2e/census.ts';
import {
  lambdaContext,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';

describe('census fanned out to census workers', () => {
  let h: E2eHarness;
  let s3: S3Emulator;
  let pools: { spare: string; shrink: string };
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'fanout' });
    s3 = await startS3Emulator(['census-snapshots']);
    wireLaunchers(h);
  });
  afterAll(async () => {
    await s3?.close();
    await h?.close();
  });

  const snapshots = () =>
    new S3SnapshotStore(
      createS3Client({ region: 'us-east-1', endpoint: s3.endpoint, credentials: LOCAL_CREDENTIALS }),
      'census-snapshots',
    );

  /** Lambda's Event invocations of census-worker, in process: `misbehave` may throw or deliver twice. */
  function workers(misbehave: (r: CensusShardRequest, attempt: number) => 'throw' | 'twice' | 'once') {
    const handler = createCensusWorkerHandler(() =>
      Promise.resolve({
        loop: { store: h.store(), snapshots: snapshots(), clock: h.clock },
        settings: { clusterName: h.clusterName },
        obs: {
          logger: h.logger,
          metrics: new EmfMetrics({ namespace: 'kraftsman', serviceName: 'census-worker', sink: () => {} }),
        },
      }),
    );
    const outcomes: { shard: number; created: boolean }[] = [];
    const invoker = new InProcessInvoker().register('census-worker', async (payload, attempt) => {
      const r = payload as CensusShardRequest;
      const how = misbehave(r, attempt);
      if (how === 'throw') throw new Error(`worker of shard ${r.shard} killed`);
      for (let i = 0; i < (how === 'twice' ? 2 : 1); i++)
        outcomes.push(await handler(payload, lambdaContext('census-worker')));
    });
    return { invoker, outcomes };
  }

  const fanOut = (invoker: InProcessInvoker) => ({
    invoker,
    snapshots: snapshots(),
    shardSize: 3,
    pollMs: 20,
  });

  it('grows a fleet of eight candidates in two pools', async () => {
    const spare = await underusedNode(h, 'spare');
    h.seed(Array.from({ length: 6 }, (_, i) => emptyNode(`spare-e${i}`, spare.pool)));
    const shrink = await underusedNode(h, 'shrink');
    pools = { spare: spare.pool, shrink: shrink.pool };
    const single = await censusContainer(h).handler(scheduledEvent(h.clock), lambdaContext('census'));
    expect(single).toMatchObject({ outcome: 'ran', candidates: 8, shards: 0, unreached: 0 });
  });

  it('counts across three shards what one invocation counts, and a shard delivered twice counts once', async () => {
    const one = await censusContainer(h).handler(scheduledEvent(h.clock), lambdaContext('census'));
    const expected = await h.store().listCensus(h.clusterName);
    const { invoker, outcomes } = workers((r) => (r.shard === 0 ? 'twice' : 'once'));
    const c = censusContainer(h, { fanOut: fanOut(invoker) });
    const r = await c.handler(scheduledEvent(h.clock), lambdaContext('census'));
    expect(r).toEqual({ ...one, shards: 3, failedShards: [] });
    const stored = await h.store().listCensus(h.clusterName);
    expect(stored.map((s) => [s.nodePool, s.counts])).toEqual(expected.map((s) => [s.nodePool, s.counts]));
    // Shard 0's second delivery found its result stored and added nothing.
    expect(outcomes.filter((o) => o.shard === 0).map((o) => o.created)).toEqual([true, false]);
    expect(emfValue(c.emf, LOOP_METRICS.censusShards)).toBe(3);
    expect(emfValue(c.emf, LOOP_METRICS.censusShardsFailed)).toBe(0);
    // The snapshot object is removed once the shards are merged.
    expect(s3.buckets.get('census-snapshots')?.size).toBe(0);
    expect(s3.calls.filter((call) => call.startsWith('GetObject'))).toHaveLength(4);
  });

  it("counts a failed shard's candidates unreached, keeps the other shards' counts and says a shard failed", async () => {
    const { invoker } = workers((r) => (r.shard === 1 ? 'throw' : 'once'));
    const c = censusContainer(h, { fanOut: fanOut(invoker), sweepBudgetMs: 3_000 });
    const event = scheduledEvent(h.clock);
    const r = await c.handler(event, lambdaContext('census'));
    await invoker.settled();
    expect(invoker.records.filter((x) => x.outcome === 'failed')).toHaveLength(1);
    expect(r).toMatchObject({ outcome: 'ran', candidates: 8, truncated: true, unreached: 3, shards: 3 });
    expect(r).toMatchObject({ failedShards: [1] });
    const stored = await h.store().listCensus(h.clusterName);
    const unreached = stored.reduce((n, s) => n + (s.counts.unreached ?? 0), 0);
    expect(unreached).toBe(3);
    const judged = stored.reduce((n, s) => n + s.candidates - (s.counts.unreached ?? 0), 0);
    expect(judged).toBe(5);
    expect(emfValue(c.emf, LOOP_METRICS.censusShardsFailed)).toBe(1);
    expect(emfValue(c.emf, LOOP_METRICS.censusUnreached)).toBe(3);
    expect(emfValue(c.emf, LOOP_METRICS.censusTruncatedTotal)).toBe(1);
    expect(await h.store().listCensusShards(h.clusterName, String(event.id))).toHaveLength(2);
    expect(pools.spare).not.toBe(pools.shrink);
  });

  it('refuses a malformed shard request naming its field', async () => {
    const handler = createCensusWorkerHandler(() => Promise.reject(new Error('deps not reached')));
    await expect(
      handler({ cluster: 'fanout', runId: randomUUID(), shard: -1, candidates: [] }, lambdaContext('w')),
    ).rejects.toThrow(/census-worker event: shard: .*; candidates: .*; snapshotKey/);
  });
});
