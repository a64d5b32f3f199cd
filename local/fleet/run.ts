// Runs one scenario: starts the environment, seeds the fleet, then simulated minute by minute runs the
// scenario's load change, every function due (through its handler, with its Lambda event), waits for the
// async invocations they made, delivers queued interruption events, lets the alive cluster bind pods, and
// takes a sample. Everything the summary says is counted here or read from the emulators at the end.
import { bindPending, collectPodGarbage, refreshDisruptionBudgets } from '../kube-api/index.ts';
import { markLostNodes } from '../kubelet.ts';
import { fleetCatalog } from './catalog.ts';
import { FleetClock, SIMULATED_START, type FleetTime } from './clock.ts';
import { invocationMeter, type InvocationMeter } from './costs.ts';
import { startEnvironment, type FleetEnvironment } from './environment.ts';
import { budgetOverspends } from './invariants.ts';
import { InterruptionRecorder } from './interruptions.ts';
import { Ledger } from './ledger.ts';
import type { FleetInstrument } from './instrument.ts';
import { FleetLog } from './log.ts';
import { observe } from './observe.ts';
import { PodLedger } from './pods.ts';
import { walkCoverage } from './recorded.ts';
import { lambdaContext, scheduledEvent, type FleetFunction } from './registry.ts';
import type { FleetSample, FleetRun } from './report/model.ts';
import type { Scenario } from './scenarios/index.ts';
import { summarize } from './summarize.ts';
import { censusTable } from './wiring-census.ts';
import { wireFunctions, type Wiring } from './wiring.ts';

export interface RunOptions {
  readonly scenario: Scenario;
  readonly seed: number;
  /** At most this many simulated seconds per wall second (a minute whose work takes longer takes longer). */
  readonly speed: number;
  readonly minutes: number;
  readonly upstream: boolean;
  /**
   * Simulated (the default): the functions' work is charged to the clock at its modelled cost and they run one
   * at a time, so a seed gives the same summary on any machine. Wall (`--wall-clock`): time runs with the wall
   * clock while they work, and the functions due together run concurrently, as before (benchmarks).
   */
  readonly time?: FleetTime;
  readonly wallNow: () => number;
  readonly onStart?: (env: FleetEnvironment) => void;
  readonly onSample?: (sample: FleetSample, at: Date) => void;
  /** Echo the functions' logs at this level and above (stderr), e.g. for KRAFTSMAN_FLEET_LOG=warn. */
  readonly echo?: ConstructorParameters<typeof FleetLog>[0];
  /** What a benchmark watches: every invocation, log entry and metric sample (instrument.ts; bench:bill). */
  readonly instrument?: FleetInstrument;
}

const MINUTE = 60_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runFleet(o: RunOptions): Promise<{
  run: FleetRun;
  env: FleetEnvironment;
  hold: (stop: Promise<unknown>, minuteMs?: number) => Promise<void>;
}> {
  const startedWall = o.wallNow();
  const time = o.time ?? 'simulated';
  // Simulated time starts at a fixed instant, so that nothing (a NodePool's scheduled budget) depends on the hour.
  const clock = new FleetClock(new Date(time === 'wall' ? startedWall : SIMULATED_START), time, o.wallNow);
  const start = clock.now().getTime();
  const catalog = fleetCatalog();
  const env = await startEnvironment(
    o.scenario.world,
    o.scenario.objects(o.seed, new Date(start)),
    catalog,
    clock,
    o.seed,
  );
  const log = new FleetLog(o.echo, o.instrument?.log);
  const meter = invocationMeter(
    clock,
    () => env.kube.stats.requests + env.ec2.world.calls.length + env.gce.world.calls.length,
    o.instrument?.around,
  );
  const wiring = wireFunctions(env, {
    clock,
    log,
    seed: o.seed,
    meter,
    ...(o.instrument?.metrics ? { metricsTee: o.instrument.metrics } : {}),
    upstream: o.upstream,
    ...(o.scenario.parameters ? { parameters: o.scenario.parameters } : {}),
  });
  const closeAll = async () => {
    clock.stop();
    await wiring.close();
    await env.close();
  };
  try {
    o.onStart?.(env);
    const ledger = new Ledger({ ec2: env.ec2.world, gce: env.gce.world });
    const pods = new PodLedger(env.kube);
    const interruptions = new InterruptionRecorder(env.kube);
    const samples: FleetSample[] = [];
    let overspends = 0;
    const take = async (minute: number): Promise<void> => {
      wiring.commands.noteClaims(env.kube);
      interruptions.sample(minute);
      const commandsInFlight = await wiring.commands.inFlight();
      const coverage = walkCoverage(wiring.metrics);
      const s: FleetSample = { minute, ...observe(env.kube, catalog), coverage, commandsInFlight };
      samples.push(s);
      o.onSample?.(s, clock.now());
    };
    // As the deploy guide's last step: pricing runs once right after the deploy, so the first passes price
    // from a stored book rather than the catalog (docs/deploy.md, "Deploy").
    const firing = { wiring, ledger, clock, meter };
    await fire(
      firing,
      0,
      wiring.functions.filter((f) => f.name === 'pricing'),
    );
    await take(0);
    /** One simulated minute: the clock moves, the scenario acts (during it), the functions due fire. */
    const step = async (minute: number, scenario: boolean): Promise<void> => {
      clock.advanceTo(new Date(start + minute * MINUTE));
      clock.runDue();
      if (scenario) {
        o.scenario.atMinute?.(minute, env.kube, pods);
        await o.scenario.inject?.(minute, env, clock.now());
      }
      // Nodes whose instance went (an injected fault, a termination) stop being Ready, as a cluster's would.
      markLostNodes(env.kube, { ec2: env.ec2.world, gce: env.gce.world });
      await fire(firing, minute);
      collectPodGarbage(env.kube);
      bindPending(env.kube);
      refreshDisruptionBudgets(env.kube);
      ledger.sampleClouds();
      overspends += budgetOverspends(env.kube).length;
      await take(minute);
    };
    for (let minute = 1; minute <= o.minutes; minute++) {
      const wallBefore = o.wallNow();
      await step(minute, true);
      await sleep(Math.max(0, MINUTE / o.speed - (o.wallNow() - wallBefore)));
    }
    const wallSeconds = (o.wallNow() - startedWall) / 1000;
    const commands = await wiring.commands.finished();
    const commandMarkers = await wiring.commands.markers(start);
    const census = await censusTable(wiring.store, env.clusterName);
    const run = summarize({
      ...o,
      env,
      samples,
      ledger,
      pods,
      log,
      wiring,
      overspends,
      wallSeconds,
      commands,
      commandMarkers,
      interruptions: interruptions.interruptions(commands),
      census,
    });
    /**
     * `--hold`: the functions go on firing after the scenario, one simulated minute per `minuteMs` of wall time
     * (a real minute by default, as their schedules fire in a deployment), until `stop` settles. The scenario no
     * longer acts; whatever a user applies with kubectl is provisioned, drained or consolidated.
     */
    const hold = async (stop: Promise<unknown>, minuteMs = MINUTE): Promise<void> => {
      let stopped = false;
      void stop.then(() => (stopped = true));
      for (let minute = o.minutes + 1; !stopped; minute++) {
        await Promise.race([sleep(minuteMs), stop]);
        if (!stopped) await step(minute, false);
      }
    };
    return { run, env: { ...env, close: closeAll }, hold };
  } catch (err: unknown) {
    await closeAll();
    throw err;
  }
}

/**
 * The order the functions due at one minute run in, in simulated time. Lambda starts them together, each reading
 * the cluster as the minute found it; run one at a time, each sees what the ones before it did, so the order is
 * chosen to stay close to that: lifecycle first (it registers and initializes what launched the minute before, and
 * finishes terminations), then the disruption functions, which decide on the minute's state — before provision's
 * new claims, which a concurrent pass would not have seen yet and a sequential one would wait on as unlaunched (the
 * sync gate) — then provision, and census, which only reports. A function not listed runs after these.
 */
const SIMULATED_ORDER = ['pricing', 'lifecycle', 'consolidate', 'orchestrate', 'provision', 'census'];
const simulatedRank = (f: FleetFunction): number => {
  const i = SIMULATED_ORDER.indexOf(f.name);
  return i < 0 ? SIMULATED_ORDER.length : i;
};

interface Firing {
  readonly wiring: Wiring;
  readonly ledger: Ledger;
  readonly clock: FleetClock;
  readonly meter: InvocationMeter;
}

/**
 * The functions due this minute, then what they set going. In wall-clock mode they run concurrently (as
 * EventBridge fires them); in simulated mode one at a time in SIMULATED_ORDER, each one's asynchronous
 * invocations run (one at a time) before the next starts: the order is fixed, so the run is the same every time.
 */
async function fire(
  { wiring, ledger, clock, meter }: Firing,
  minute: number,
  due = wiring.functions.filter((f) => minute % f.everyMinutes === 0),
): Promise<void> {
  const t0 = Date.now();
  const run = (f: FleetFunction): Promise<void> =>
    meter(f.name, () =>
      f.handler(
        scheduledEvent(f.name, clock.now(), minute),
        lambdaContext(f.name, minute, f.timeoutMs, clock),
      ),
    )
      .then((r) => ledger.add(f.name, r))
      .catch((err: unknown) => ledger.fail(f.name, err))
      .finally(() => ledger.add(`${f.name}.wall`, { ms: Date.now() - t0 }));
  if (clock.mode === 'wall') await Promise.all(due.map(run));
  else
    for (const f of [...due].sort((a, b) => simulatedRank(a) - simulatedRank(b))) {
      await run(f);
      await wiring.invoker.settled();
    }
  await wiring.invoker.settled();
  ledger.add('launches.wall', { ms: Date.now() - t0 });
  const sqs = await wiring.deliverInterruptions().catch((err: unknown) => ledger.fail('lifecycle-sqs', err));
  if (sqs) ledger.add('lifecycle-sqs', { failedMessages: sqs.batchItemFailures.length });
  await wiring.invoker.settled();
}
