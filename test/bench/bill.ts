// npm run bench:bill — the reconciler's own monthly AWS bill at 100, 1,000 and 5,000 nodes, quiet and busy, from
// what a local fleet run measured (docs/benchmarks.md, "bench:bill").
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { runFleet } from '../../local/fleet/run.ts';
import { rampScenario, type Scenario } from '../../local/fleet/scenarios/index.ts';
import { localize } from '../../local/fleet/scenarios/localize.ts';
import { RAMP_WORLD } from '../../local/fleet/scenarios/small-fleet.ts';
import { FLEET_NOW } from '../fixtures/fleet/ids.ts';
import { generateRamp } from '../fixtures/fleet/ramp.ts';
import { deployedFunctions } from './bill/deployment.ts';
import { BillMeter } from './bill/meter.ts';
import { monthlyBill, type Bill } from './bill/month.ts';
import { PRICE_TABLE } from './bill/prices.ts';
import { extrapolateBill } from './bill/extrapolate.ts';
import { readFileSync } from 'node:fs';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,5000' },
    fleets: { type: 'string', default: 'quiet,busy' },
    minutes: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    json: { type: 'string' },
    /** Earlier runs' --json files: their bills join this run's (for --extrapolate), nothing is re-run. */
    from: { type: 'string', default: '' },
    /** Sizes priced by extrapolation from the two largest measured sizes of each fleet (printed as such). */
    extrapolate: { type: 'string', default: '' },
  },
});
const sizes = values.sizes ? values.sizes.split(',').map(Number) : [];
const fleets = values.fleets.split(',');
const minutes = Number(values.minutes);
for (const [what, n] of [...sizes.map((s) => ['--sizes', s] as const), ['--minutes', minutes] as const])
  if (!Number.isInteger(n) || n <= 0) throw new Error(`bench:bill: ${what}: ${n} is not a positive integer`);
for (const f of fleets)
  if (f !== 'quiet' && f !== 'busy') throw new Error(`bench:bill: --fleets: "${f}" is not quiet or busy`);

/** A quiet fleet: the ramp's nodes and bound pods, nothing pending, nothing edited. */
function quiet(nodes: number): Scenario {
  return {
    name: `quiet-${nodes}`,
    description: `${nodes} nodes, nothing pending`,
    minutes,
    world: RAMP_WORLD,
    objects: (seed, runStart) =>
      localize(generateRamp({ nodes, pending: 0, seed }).objects, FLEET_NOW, runStart, RAMP_WORLD.gcpProject),
  };
}
/** A busy fleet: the benchmark ramp (3.4 pending pods a node and a NodePool edit that drifts nodes). */
const busy = (nodes: number): Scenario =>
  rampScenario(`ramp-${nodes}`, { nodes, pending: Math.round(nodes * 3.4), minutes });

const usd = (n: number) => `$${n < 10 ? n.toFixed(2) : n.toFixed(1)}`;
const num = (n: number) => Math.round(n).toLocaleString('en-US');

function print(title: string, b: Bill, load: string, wallS: number): void {
  console.log(`\n## ${title} — ${usd(b.totalUsd)} a month (run ${wallS.toFixed(0)} s wall, load ${load})`);
  console.log(
    '| function | MB | invocations/month | mean ms | GB-s/month | Lambda | RRU/month | WRU/month | DynamoDB | log MB/month | logs | basis |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|');
  for (const l of b.functions)
    console.log(
      `| ${l.fn} | ${l.memoryMb} | ${num(l.invocations)} | ${num(l.meanMs)} | ${num(l.gbSeconds)} | ${usd(l.lambdaUsd)} | ${num(l.rru)} | ${num(l.wru)} | ${usd(l.dynamoUsd)} | ${num(l.logBytes / 1e6)} | ${usd(l.logsUsd)} | ${l.basis} |`,
    );
  console.log(
    `| SQS (interruption queue) | | | | | | | | | | ${usd(b.sqsUsd)} | ${num(b.sqsRequests)} requests |`,
  );
  console.log(
    `| EventBridge schedules | | ${num(b.scheduledInvocations)} | | | | | | | | ${usd(b.eventBridgeUsd)} | scheduled rules are free |`,
  );
  console.log(
    `| CloudWatch custom metrics | | | | | | | | | | ${usd(b.metricsUsd)} | ${b.metrics} distinct name × dimensions |`,
  );
  console.log(`| Secrets Manager | | | | | | | | | | ${usd(b.secretsUsd)} | 3 kubeconfig secrets |`);
}

const deployed = deployedFunctions();
console.log(
  `bench:bill — prices ${PRICE_TABLE.region}, looked up ${PRICE_TABLE.date}; ${minutes} simulated minutes a run, extrapolated to 30 days on serverless.yml's schedules`,
);
interface Result {
  fleet: string;
  nodes: number;
  bill: Bill;
  /** The same run priced on each invocation's CPU time. */
  cpuBill?: Bill;
  dynamoUnreported: number;
  extrapolated?: boolean;
}
const results: Result[] = [];
for (const file of values.from.split(',').filter(Boolean)) {
  const earlier = JSON.parse(readFileSync(file, 'utf8')) as { results?: Result[] };
  if (!Array.isArray(earlier.results)) throw new Error(`bench:bill: --from ${file}: no "results" array`);
  for (const r of earlier.results) {
    print(`${r.fleet} fleet, ${num(r.nodes)} nodes (from ${file})`, r.bill, 'as recorded', 0);
    results.push(r);
  }
}
for (const nodes of sizes)
  for (const fleet of fleets) {
    const scenario = fleet === 'quiet' ? quiet(nodes) : busy(nodes);
    const meter = new BillMeter(scenario.world.clusterName);
    const restore = meter.meterDynamo();
    let sqsMessages = 0;
    const t0 = Date.now();
    const load0 = loadavg()[0] ?? 0;
    try {
      const { env } = await runFleet({
        scenario,
        seed: Number(values.seed),
        speed: Number.POSITIVE_INFINITY,
        minutes,
        upstream: false,
        wallNow: Date.now,
        instrument: meter,
        onStart: (e) => {
          // Each EC2 event the interruption rule forwards is one SQS message (one SendMessage).
          const push = e.ec2Events.push.bind(e.ec2Events);
          e.ec2Events.push = (...events) => ((sqsMessages += events.length), push(...events));
        },
      });
      await env.close();
    } finally {
      restore();
    }
    const load = `${load0.toFixed(1)}–${(loadavg()[0] ?? 0).toFixed(1)}`;
    const bill = monthlyBill(
      { minutes, uses: meter.uses, metrics: meter.metricKeys.size, sqsMessages },
      deployed,
      PRICE_TABLE,
    );
    print(`${fleet} fleet, ${num(nodes)} nodes`, bill, load, (Date.now() - t0) / 1000);
    const cpuBill = monthlyBill(
      { minutes, uses: meter.uses, metrics: meter.metricKeys.size, sqsMessages },
      deployed,
      PRICE_TABLE,
      'cpu',
    );
    console.log(
      `  with each invocation's CPU time in place of its wall time (the machine's load inflates wall time): ${usd(cpuBill.totalUsd)}, Lambda ${usd(cpuBill.functions.reduce((n, l) => n + l.lambdaUsd, 0))} against ${usd(bill.functions.reduce((n, l) => n + l.lambdaUsd, 0))}`,
    );
    const byName = new Map<string, number>();
    for (const k of meter.metricKeys) {
      const name = (JSON.parse(k) as [string, string])[1];
      byName.set(name, (byName.get(name) ?? 0) + 1);
    }
    const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.log(
      `  metrics by name (top ${top.length} of ${byName.size}): ${top.map(([n, c]) => `${n} ${c}`).join(', ')}`,
    );
    if (meter.unreported > 0)
      console.log(`  note: ${meter.unreported} DynamoDB responses carried no ConsumedCapacity (counted 0)`);
    results.push({ fleet, nodes, bill, cpuBill, dynamoUnreported: meter.unreported });
  }
for (const nodes of values.extrapolate.split(',').filter(Boolean).map(Number))
  for (const fleet of fleets) {
    const measured = results
      .filter((r) => r.fleet === fleet && !r.extrapolated)
      .sort((a, b) => a.nodes - b.nodes)
      .slice(-2);
    const [small, large] = measured;
    if (!small || !large) {
      console.log(`\n${fleet} fleet, ${num(nodes)} nodes: not extrapolated (two measured sizes needed)`);
      continue;
    }
    const bill = extrapolateBill(small, large, nodes, PRICE_TABLE);
    print(
      `${fleet} fleet, ${num(nodes)} nodes — EXTRAPOLATED (not measured) from ${num(small.nodes)} and ${num(large.nodes)} nodes`,
      bill,
      '—',
      0,
    );
    results.push({ fleet, nodes, bill, dynamoUnreported: 0, extrapolated: true });
  }
console.log('\n## Summary (a month)');
for (const r of results)
  console.log(
    `- ${r.fleet} ${num(r.nodes)} nodes: ${usd(r.bill.totalUsd)}${r.extrapolated ? ' (extrapolated)' : ''}`,
  );
const goal = results.find((r) => r.fleet === 'quiet' && r.nodes === 1000);
if (goal)
  console.log(
    `Goal (issue 34): a quiet 1,000-node fleet ≤ $50 a month — ${usd(goal.bill.totalUsd)}, ${goal.bill.totalUsd <= 50 ? 'met' : 'NOT met'}`,
  );
if (values.json)
  writeFileSync(values.json, JSON.stringify({ prices: PRICE_TABLE, minutes, results }, null, 2));
