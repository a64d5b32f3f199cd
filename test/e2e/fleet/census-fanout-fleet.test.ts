// The local fleet's census fanned out to census-worker child processes (docs/mechanisms/census.md#fan-out): with a
// shard size below its candidates, the census writes its snapshot to the fleet's S3 emulator, each shard runs the
// census-worker handler in a process of its own, and the merged census reaches every candidate. Shards of 30 over
// decay-walk's candidates: several processes per sweep, few enough for a 2-core CI machine.
import { describe, expect, it } from 'vitest';
import { runFleet } from '../../../local/fleet/run.ts';
import { DECAY_WALK, fleetDecay } from '../../../local/fleet/scenarios/decay.ts';

const seed = Number(process.env.KRAFTSMAN_SEED ?? Date.now() % 100_000);

describe(`local fleet census fan-out (seed ${seed})`, () => {
  it('runs the shards in worker processes and reaches every candidate', async () => {
    const scenario = fleetDecay('decay-walk', { ...DECAY_WALK, parameters: { censusShardSize: '30' } });
    const { run, env } = await runFleet({
      scenario,
      seed,
      speed: 1e6,
      minutes: 11,
      upstream: false,
      wallNow: Date.now,
    });
    try {
      const calls = env.s3.calls;
      const puts = calls.filter((c) => c.startsWith('PutObject kraftsman-census/census/'));
      const gets = calls.filter((c) => c.startsWith('GetObject kraftsman-census/census/'));
      expect(puts.length).toBeGreaterThan(0);
      expect(gets.length).toBeGreaterThanOrEqual(2 * puts.length);
      expect(calls.filter((c) => c.startsWith('DeleteObject'))).toHaveLength(puts.length);
      const pools = run.census;
      expect(pools.length).toBeGreaterThan(0);
      const sum = (k: string) => pools.reduce((n, p) => n + (p.counts[k] ?? 0), 0);
      expect(sum('unreached')).toBe(0);
      expect(sum('delete') + sum('replace') + sum('none')).toBeGreaterThan(4);
    } finally {
      await env.close();
    }
  }, 300_000);
});
