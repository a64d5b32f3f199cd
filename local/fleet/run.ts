// Runs one scenario: starts the environment, seeds the fleet, then simulated minute by minute runs the
// scenario's load change, every function due (through its handler, with its Lambda event), waits for the
// async invocations they made, delivers queued interruption events, lets the alive cluster bind pods, and
// takes a sample. Everything the summary says is counted here or read from the emulators at the end.
import { bindPending, collectPodGarbage, refreshDisruptionBudgets } from '../kube-api/index.ts';
import { markLostNodes } from '../kubelet.ts';
import { builtinCatalog } from '../../shared/catalog/builtin.ts';
import { FleetClock } from './clock.ts';
import { startEnvironment, type FleetEnvironment } from './environment.ts';
import { budgetOverspends } from './invariants.ts';
import { InterruptionRecorder } from './interruptions.ts';
import { Ledger } from './ledger.ts';
import { FleetLog } from './log.ts';
import { observe } from './observe.ts';
import { PodLedger } from './pods.ts';
import { walkCoverage } from './recorded.ts';
import { lambdaContext, scheduledEvent } from './registry.ts';
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
  readonly wallNow: () => number;
  readonly onStart?: (env: FleetEnvironment) => void;
  readonly onSample?: (sample: FleetSample, at: Date) => void;
  /** Echo the functions' logs at this level and above (stderr), e.g. for KRAFTSMAN_FLEET_LOG=warn. */
  readonly echo?: ConstructorParameters<typeof FleetLog>[0];
}

const MINUTE = 60_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runFleet(o: RunOptions): Promise<{ run: FleetRun; env: FleetEnvironment }> {
  const startedWall = o.wallNow();
  const clock = new FleetClock(new Date(startedWall), o.wallNow);
  const start = clock.now().getTime();
  const catalog = builtinCatalog();
  const env = await startEnvironment(
    o.scenario.world,
    o.scenario.objects(o.seed, new Date(start)),
    catalog,
    clock,
  );
  const log = new FleetLog(o.echo);
  const wiring = wireFunctions(env, {
    clock,
    log,
    upstream: o.upstream,
    ...(o.scenario.parameters ? { parameters: o.scenario.parameters } : {}),
  });
  const closeAll = async () => {
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
    await fire(
      wiring,
      ledger,
      clock,
      0,
      wiring.functions.filter((f) => f.name === 'pricing'),
    );
    await take(0);
    for (let minute = 1; minute <= o.minutes; minute++) {
      const wallBefore = o.wallNow();
      clock.advanceTo(new Date(start + minute * MINUTE));
      o.scenario.atMinute?.(minute, env.kube, pods);
      await o.scenario.inject?.(minute, env, clock.now());
      // Nodes whose instance went (an injected fault, a termination) stop being Ready, as a cluster's would.
      markLostNodes(env.kube, { ec2: env.ec2.world, gce: env.gce.world });
      await fire(wiring, ledger, clock, minute);
      collectPodGarbage(env.kube);
      bindPending(env.kube);
      refreshDisruptionBudgets(env.kube);
      ledger.sampleClouds();
      overspends += budgetOverspends(env.kube).length;
      await take(minute);
      await sleep(Math.max(0, MINUTE / o.speed - (o.wallNow() - wallBefore)));
    }
    const wallSeconds = (o.wallNow() - startedWall) / 1000;
    const commands = await wiring.commands.finished();
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
      interruptions: interruptions.interruptions(commands),
      census,
    });
    return { run, env: { ...env, close: closeAll } };
  } catch (err: unknown) {
    await closeAll();
    throw err;
  }
}

/** The functions due this minute, concurrently (as EventBridge fires them), then what they set going. */
async function fire(
  wiring: Wiring,
  ledger: Ledger,
  clock: FleetClock,
  minute: number,
  due = wiring.functions.filter((f) => minute % f.everyMinutes === 0),
): Promise<void> {
  const t0 = Date.now();
  await Promise.all(
    due.map((f) =>
      f
        .handler(
          scheduledEvent(f.name, clock.now(), minute),
          lambdaContext(f.name, minute, f.timeoutMs, clock),
        )
        .then((r) => ledger.add(f.name, r))
        .catch((err: unknown) => ledger.fail(f.name, err))
        .finally(() => ledger.add(`${f.name}.wall`, { ms: Date.now() - t0 })),
    ),
  );
  await wiring.invoker.settled();
  ledger.add('launches.wall', { ms: Date.now() - t0 });
  const sqs = await wiring.deliverInterruptions().catch((err: unknown) => ledger.fail('lifecycle-sqs', err));
  if (sqs) ledger.add('lifecycle-sqs', { failedMessages: sqs.batchItemFailures.length });
  await wiring.invoker.settled();
}
