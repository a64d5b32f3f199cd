// Writes per consolidation pass (bench:state-store, second table): real passes (shared/loop/disruption-pass.ts)
// over a fleet whose candidates all simulate to no-ops, through the DynamoDB adapter, counted at the SDK client
// (items and BatchWriteItem calls; other write calls listed by operation). Counts, not times.
import { passOptions } from '../../shared/disruption/types.ts';
import { disruptionPass } from '../../shared/loop/disruption-pass.ts';
import { ManualClock } from '../fakes/manual-clock.ts';
import { RecordingMetrics } from '../fakes/recording-metrics.ts';
import { noOpFleet } from '../fixtures/fleet/no-op-fleet.ts';
import type { StateTable } from '../support/dynamodb/state-table.ts';
import { countingStore, type WriteCount } from '../support/dynamodb/write-counter.ts';
import { NOW, snapshotOf } from '../unit/disruption/fixtures.ts';

/** The passes measured, in order, each this long after the first (the schedule runs a pass a minute). */
export const WRITE_SCENARIOS = [
  { name: 'first', atMs: 0, churn: false, what: 'first pass on an empty store' },
  { name: 'quiet', atMs: 60_000, churn: false, what: 'a minute later, nothing changed' },
  { name: 'churn-1%', atMs: 120_000, churn: true, what: "1% of the candidates' pods changed" },
  { name: 'quiet-after', atMs: 180_000, churn: true, what: 'a minute later, nothing more changed' },
  {
    name: 'ttl-renewal',
    atMs: 360_000,
    churn: true,
    what: 'past the 5-minute TTL: every no-op re-confirmed',
  },
] as const;

export interface WriteRow {
  readonly nodes: number;
  readonly passes: Record<string, PassWrites>;
}

interface PassWrites {
  /** Distinct items put or deleted. */
  readonly items: number;
  /** BatchWriteItem requests, retries included. */
  readonly batchCalls: number;
  /** Items sent again by a retried request (a timeout or UnprocessedItems): load, not the write-back, decides. */
  readonly resent: number;
  readonly otherCalls: Record<string, number>;
}

const summary = (c: WriteCount): PassWrites => {
  const { BatchWriteItem: _batch, ...otherCalls } = c.calls;
  const sent = c.puts.length + c.deletes.length;
  const items = new Set(c.puts).size + new Set(c.deletes).size;
  return { items, batchCalls: c.batchCalls, resent: sent - items, otherCalls };
};

export async function writesPerPass(table: StateTable, nodes: number): Promise<WriteRow> {
  const clock = new ManualClock(NOW.getTime());
  const counting = countingStore(table, clock, { requestTimeoutMs: 30_000 });
  const cluster = `writes-${nodes}`;
  // every hundredth node's pod moves: 1% of the candidates get a new fingerprint
  const churned = new Set(
    Array.from({ length: nodes }, (_, i) => i)
      .filter((i) => i % 100 === 50)
      .map((i) => `n${String(i).padStart(4, '0')}`),
  );
  const quiet = snapshotOf(noOpFleet(nodes));
  const churn = snapshotOf(noOpFleet(nodes, churned));
  const passes: WriteRow['passes'] = {};
  try {
    for (const s of WRITE_SCENARIOS) {
      clock.advance(NOW.getTime() + s.atMs - clock.now().getTime());
      counting.reset();
      await disruptionPass(
        { store: counting.store, clock, metrics: new RecordingMetrics() },
        { cluster, snapshot: s.churn ? churn : quiet, options: passOptions({}) },
      );
      passes[s.name] = summary(counting.count());
    }
  } finally {
    counting.destroy();
  }
  return { nodes, passes };
}

export function printWrites(rows: readonly WriteRow[], server: string): void {
  console.log(
    `\nWrites per consolidation pass (${server}; real passes; distinct items / BatchWriteItem calls, retries included):`,
  );
  for (const s of WRITE_SCENARIOS) console.log(`  ${s.name.padEnd(12)} ${s.what}`);
  console.log(`nodes  ${WRITE_SCENARIOS.map((s) => s.name.padStart(12)).join('  ')}  other write calls`);
  for (const r of rows) {
    const cells = WRITE_SCENARIOS.map((s) => {
      const p = r.passes[s.name];
      return `${p?.items ?? '-'} / ${p?.batchCalls ?? '-'}`.padStart(12);
    });
    const other = WRITE_SCENARIOS.map((s) => JSON.stringify(r.passes[s.name]?.otherCalls ?? {})).join(' ');
    const resent = WRITE_SCENARIOS.reduce((n, s) => n + (r.passes[s.name]?.resent ?? 0), 0);
    console.log(`${String(r.nodes).padStart(5)}  ${cells.join('  ')}  ${other}  resent items: ${resent}`);
  }
}
