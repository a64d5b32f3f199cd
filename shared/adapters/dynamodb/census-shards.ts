// Census shard results (docs/mechanisms/census.md#fan-out): one item per cluster, run and shard in the CSHARD
// partition, put only if absent, so a second delivery of a worker's invocation leaves the first result as it was.
import { z } from 'zod';
import type { CensusShardRecord } from '../../ports/state-store/records.ts';
import { CENSUS_RETENTION_MS } from '../../ports/state-store/records.ts';
import { parseItem } from './items.ts';
import { censusShardKey, censusShardPk, censusShardPrefix, cleanupTtl } from './keys.ts';
import type { Table } from './table.ts';

const shardItem = z.object({
  runId: z.string(),
  shard: z.number().int(),
  reached: z.number().int(),
  nodePools: z.record(z.string(), z.record(z.string(), z.number().int())),
  at: z.number().transform((n) => new Date(n)),
});

export class CensusShards {
  constructor(private readonly table: Table) {}

  // Timeline of a second delivery: worker A puts shard 3 (created) → Lambda retries the event → worker B computes
  // the same shard and puts it: attribute_not_exists(pk) fails, B is told `created: false`, nothing is added.
  async put(cluster: string, r: CensusShardRecord): Promise<{ created: boolean }> {
    const at = r.at.getTime();
    const out = await this.table.putIfAbsent(censusShardKey(cluster, r.runId, r.shard), {
      runId: r.runId,
      shard: r.shard,
      reached: r.reached,
      nodePools: r.nodePools,
      at,
      ttl: cleanupTtl(at + CENSUS_RETENTION_MS),
    });
    return { created: out.ok };
  }

  async list(cluster: string, runId: string): Promise<CensusShardRecord[]> {
    const items = await this.table.query(
      { attr: 'pk', value: censusShardPk(cluster) },
      { skPrefix: censusShardPrefix(runId) },
    );
    return items.map((i) => parseItem(shardItem, i)).sort((a, b) => a.shard - b.shard);
  }
}
