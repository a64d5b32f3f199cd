// Runs one scenario: starts the environment, seeds the fleet, then minute by simulated minute runs the
// scenario's load change, every function due (through its handler), the alive binder, and takes a sample.
import { bindPending, refreshDisruptionBudgets } from '../kube-api/index.ts';
import { builtinCatalog } from '../../shared/catalog/builtin.ts';
import { startEnvironment, type FleetEnvironment } from './environment.ts';
import { observe, type FleetObservation } from './observe.ts';
import type { FleetSample, FleetRun } from './report/model.ts';
import { lambdaContext, scheduledEvent, type HandlerRegistry } from './registry.ts';
import type { Scenario } from './scenarios/index.ts';
import type { FleetSummary } from './summary.ts';

export interface RunOptions {
  readonly scenario: Scenario;
  readonly seed: number;
  /** Simulated seconds per wall second. */
  readonly speed: number;
  readonly minutes: number;
  readonly upstream: boolean;
  readonly wallNow: () => number;
  readonly onStart?: (env: FleetEnvironment) => void;
  readonly onSample?: (sample: FleetSample, at: Date) => void;
  /** Builds the functions against the running environment (functions/<fn>/handler.ts with deps). */
  readonly registry: (env: FleetEnvironment, now: () => Date) => Promise<HandlerRegistry>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runFleet(o: RunOptions): Promise<{ run: FleetRun; env: FleetEnvironment }> {
  const startedWall = o.wallNow();
  // Simulated time starts at the wall clock (dates relative to the run) and runs `speed` times faster.
  const simNow = (): Date => new Date(startedWall + (o.wallNow() - startedWall) * o.speed);
  const catalog = builtinCatalog();
  const env = await startEnvironment(o.scenario.objects(o.seed), catalog, simNow);
  o.onStart?.(env);
  const functions = await o.registry(env, simNow);
  const samples: FleetSample[] = [];
  const take = (minute: number, obs: FleetObservation): void => {
    const s = { minute, ...obs, coverage: 0, commandsInFlight: 0 };
    samples.push(s);
    o.onSample?.(s, simNow());
  };
  const first = observe(env.kube, catalog);
  take(0, first);
  for (let minute = 1; minute <= o.minutes; minute++) {
    o.scenario.atMinute?.(minute, env.kube);
    const due = functions.filter((f) => minute % f.everyMinutes === 0);
    await Promise.all(
      due.map((f) =>
        f.handler(
          scheduledEvent(f.name, simNow(), minute),
          lambdaContext(f.name, minute, 60_000, () => simNow().getTime()),
        ),
      ),
    );
    bindPending(env.kube);
    refreshDisruptionBudgets(env.kube);
    await sleep(60_000 / o.speed);
    take(minute, observe(env.kube, catalog));
  }
  const summary = summarize(o, samples, first, (o.wallNow() - startedWall) / 1000);
  return { run: { summary, samples, skipReasons: {}, census: [] }, env };
}

function summarize(
  o: RunOptions,
  samples: readonly FleetSample[],
  first: FleetObservation,
  wallSeconds: number,
): FleetSummary {
  const last = samples[samples.length - 1] ?? { ...first, minute: 0, coverage: 0, commandsInFlight: 0 };
  const clouds = (n: Readonly<Record<string, number>>) => ({ aws: n.aws ?? 0, gcp: n.gcp ?? 0 });
  return {
    scenario: o.scenario.name,
    seed: String(o.seed),
    upstream: o.upstream,
    simulatedMinutes: o.minutes,
    wallSeconds: Math.round(wallSeconds * 10) / 10,
    cost: {
      startPerHour: first.costPerHour,
      endPerHour: last.costPerHour,
      lowerBoundPerHour: last.lowerBoundPerHour,
    },
    nodes: { start: clouds(first.nodesByCloud), end: clouds(last.nodesByCloud) },
    pods: {
      pendingMax: Math.max(...samples.map((s) => s.pending)),
      pendingEnd: last.pending,
      unprovisionable: 0,
      lost: 0,
    },
    commands: [],
    launches: { aws: 0, gcp: 0, failed: 0, gangsLaunched: 0, gangsRefused: 0 },
    interruptions: [],
    invariants: { strandedTaints: 0, orphanInstances: 0, lostPods: 0, budgetOverspends: 0 },
  };
}
