// Calibrates the local fleet's cost model (local/fleet/costs.ts; docs/fleet.md, "Time: the cost model") against
// this machine, in CPU time (the process's user + system: steadier than wall time on a shared machine, and what
// an idle one's wall time comes to). Walk work: decay-walk in wall-clock mode, each candidate's time up to the next
// fitted to a + b × its simulation steps. Invocations: decay in simulated mode (one invocation at a time), each
// invocation's time fitted to a + b × the requests it made. Both by least squares.
// Run: npx tsx test/bench/fleet-costs.ts [minutes]
import { FleetClock } from '../../local/fleet/clock.ts';
import { INVOCATION_COSTS_MS } from '../../local/fleet/costs.ts';
import { runFleet } from '../../local/fleet/run.ts';
import { findScenario } from '../../local/fleet/scenarios/index.ts';
import type { WalkWork } from '../../shared/disruption/types.ts';

const minutes = Number(process.argv[2] ?? 6);
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Least squares y = a + b·x. */
function fit(points: readonly (readonly [number, number])[]): { a: number; b: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const b =
    points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) /
    points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return { a: my - b * mx, b };
}

async function run(name: string, time: 'wall' | 'simulated'): Promise<void> {
  const scenario = findScenario(name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  const { env } = await runFleet({
    scenario,
    seed: 42,
    speed: 1e6,
    minutes,
    upstream: false,
    time,
    wallNow: Date.now,
  });
  await env.close();
}

async function walkCosts(): Promise<Record<WalkWork, number>> {
  // Per candidate judged: [its simulation steps, CPU ms until the next candidate]; closed by a gap over 50 ms.
  const points: [number, number][] = [];
  let open: { at: number; steps: number } | undefined;
  let last = 0;
  const work = FleetClock.prototype.work;
  FleetClock.prototype.work = function (kind, count) {
    const t = cpuMs();
    if (open && t - last > 50) open = undefined;
    if (kind === 'simulation-step' && open) open.steps += count;
    if (kind === 'candidate' && count === 1) {
      if (open) points.push([open.steps, t - open.at]);
      open = { at: t, steps: 0 };
    }
    last = t;
    work.call(this, kind, count);
  };
  try {
    await run('decay-walk', 'wall');
  } finally {
    FleetClock.prototype.work = work;
  }
  const { a, b } = fit(points);
  console.log(`walk: ${points.length} candidates timed, ${points.reduce((s, [x]) => s + x, 0)} steps`);
  return { 'simulation-step': b, candidate: a };
}

async function invocationCosts(): Promise<{ invocation: number; request: number }> {
  const points: [number, number][] = [];
  let last = cpuMs();
  const charge = FleetClock.prototype.charge;
  FleetClock.prototype.charge = function (ms) {
    const t = cpuMs();
    const requests = (ms - INVOCATION_COSTS_MS.invocation) / INVOCATION_COSTS_MS.request;
    if (Number.isInteger(requests) && requests >= 0) points.push([requests, t - last]);
    last = t;
    charge.call(this, ms);
  };
  try {
    await run('decay', 'simulated');
  } finally {
    FleetClock.prototype.charge = charge;
  }
  const { a, b } = fit(points);
  console.log(`invocations: ${points.length} timed, ${points.reduce((s, [x]) => s + x, 0)} requests`);
  return { invocation: a, request: b };
}

const walk = await walkCosts();
const invocation = await invocationCosts();
console.log(JSON.stringify({ walk, invocation }, null, 2));
