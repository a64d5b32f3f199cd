// bench:state-store — DynamoDB round trips per consolidation pass at 100 and 1,000 nodes, counted by the
// adapter (retries included), per pass step; then the writes real passes send at 100, 1,000 and 5,000 nodes
// (write-back.ts). Usage: npm run bench:state-store -- [--nodes 100,1000] [--write-nodes 100,1000,5000]
// [--server dynalite|dynamodb-local] [--json FILE]. Counts, not times: they do not depend on the machine.
import { writeFileSync } from 'node:fs';
import { startDynalite } from '../support/dynamodb/dynalite.ts';
import { startDynamoDbLocal } from '../support/dynamodb/dynamodb-local.ts';
import { ManualClock } from '../fakes/manual-clock.ts';
import { fleetShape, passSteps, seedPassState } from '../support/dynamodb/pass-fixture.ts';
import { startStateTable } from '../support/dynamodb/state-table.ts';
import { printWrites, writesPerPass, type WriteRow } from './write-back.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const sizesOf = (flag: string, fallback: string): number[] =>
  (arg(flag) ?? fallback).split(',').map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n <= 0)
      throw new Error(`--${flag} must be a comma-separated list of positive integers, got "${s}"`);
    return n;
  });
const sizes = sizesOf('nodes', '100,1000');
const writeSizes = sizesOf('write-nodes', '100,1000,5000');
const server = arg('server') ?? 'dynalite';
if (server !== 'dynalite' && server !== 'dynamodb-local')
  throw new Error(`--server must be dynalite or dynamodb-local, got "${server}"`);

const table = await startStateTable(server === 'dynalite' ? startDynalite : () => startDynamoDbLocal());
const rows: Record<string, unknown>[] = [];
const writes: WriteRow[] = [];
try {
  for (const nodes of sizes) {
    const clock = new ManualClock();
    const store = table.store(clock);
    const cluster = `bench-${nodes}`;
    const shape = fleetShape(nodes);
    await seedPassState(store, cluster, clock, shape);
    const steps = passSteps(store, cluster, clock, shape, 'run-1');
    const row: Record<string, unknown> = { nodes, server };
    for (const [name, step] of Object.entries(steps)) {
      store.roundTrips.reset();
      await step();
      row[name] = store.roundTrips.total;
      if (name === 'load') row.loadByOperation = store.roundTrips.byOperation();
    }
    row.total = Number(row.acquire) + Number(row.load) + Number(row.persist) + Number(row.release);
    rows.push(row);
  }
  for (const nodes of writeSizes) writes.push(await writesPerPass(table, nodes));
} finally {
  await table.close();
}

console.log(
  `DynamoDB round trips per consolidation pass (${server}; persist = worst case, every candidate rewritten)`,
);
console.log('nodes  acquire  loadPassState  persist  release  total');
for (const r of rows)
  console.log(
    `${String(r.nodes).padStart(5)}  ${String(r.acquire).padStart(7)}  ${String(r.load).padStart(13)}  ${String(r.persist).padStart(7)}  ${String(r.release).padStart(7)}  ${String(r.total).padStart(5)}`,
  );
for (const r of rows)
  console.log(`  ${r.nodes} nodes, loadPassState by operation: ${JSON.stringify(r.loadByOperation)}`);
printWrites(writes, server);
const json = arg('json');
if (json) writeFileSync(json, `${JSON.stringify({ roundTrips: rows, writes }, null, 2)}\n`);
