// The fleet's census table is what the census function stored: one row per NodePool, sorted by pool, with
// the counts (unreached among them) and the sweep's time.
import { describe, expect, it } from 'vitest';
import { censusTable } from '../../../local/fleet/wiring-census.ts';
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';

describe('the fleet census table', () => {
  it('lists the stored census per NodePool, by pool name', async () => {
    const at = new Date('2026-12-01T10:00:00Z');
    const store = new MemoryStateStore({ now: () => at });
    const counts = (d: number, u: number) => ({
      delete: d,
      replace: 0,
      none: 1,
      empty: 0,
      drifted: 0,
      unreached: u,
    });
    await store.putCensus('c1', [
      { nodePool: 'gpu', candidates: 4, counts: counts(1, 2), at },
      { nodePool: 'cpu', candidates: 3, counts: counts(2, 0), at },
    ]);
    expect(await censusTable(store, 'c1')).toEqual([
      { pool: 'cpu', candidates: 3, counts: counts(2, 0), at: '2026-12-01T10:00:00.000Z' },
      { pool: 'gpu', candidates: 4, counts: counts(1, 2), at: '2026-12-01T10:00:00.000Z' },
    ]);
    expect(await censusTable(store, 'other')).toEqual([]);
  });
});
