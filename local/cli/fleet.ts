// `kraftsman fleet` (docs/contract.md): runs a scenario on the local fleet through the Lambda handlers,
// progress on stderr, the summary table on stdout, the HTML report and optionally the JSON summary.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeLocalDynamo } from '../dynamodb/start.ts';
import { progressLine, summaryTable } from '../fleet/format.ts';
import { renderReport, type LabelledRun } from '../fleet/report/html.ts';
import { runFleet } from '../fleet/run.ts';
import { findScenario, SCENARIOS, scenarioNames } from '../fleet/scenarios/index.ts';
import { brokenInvariants } from '../fleet/summary.ts';
import type { Io } from './command-context.ts';
import { InputError } from './errors.ts';

const OPTIONS = {
  scenario: { type: 'string', default: 'decay' },
  seed: { type: 'string', default: '42' },
  speed: { type: 'string', default: '600' },
  minutes: { type: 'string' },
  upstream: { type: 'boolean', default: false },
  compare: { type: 'boolean', default: false },
  report: { type: 'string', default: 'kraftsman-report.html' },
  json: { type: 'string' },
  hold: { type: 'boolean', default: false },
  'wall-clock': { type: 'boolean', default: false },
  'list-scenarios': { type: 'boolean', default: false },
} as const;

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** KRAFTSMAN_FLEET_LOG=warn echoes the functions' warnings and errors on stderr. */
const echoLevel = (v: string | undefined) => LEVELS.find((l) => l === v?.toLowerCase());

const positive = (flag: string, v: string): number => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new InputError(`--${flag}: expected a positive number, got "${v}"`);
  return n;
};

export async function fleet(argv: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false });
  } catch (e) {
    throw new InputError(`fleet: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const v = parsed.values;
  if (v['list-scenarios']) {
    io.stdout.write(SCENARIOS.map((s) => `${s.name.padEnd(20)} ${s.description}`).join('\n') + '\n');
    return 0;
  }
  const scenario = findScenario(v.scenario);
  if (!scenario)
    throw new InputError(`--scenario: unknown "${v.scenario}"; scenarios: ${scenarioNames().join(', ')}`);
  const seed = positive('seed', v.seed);
  const speed = positive('speed', v.speed);
  const minutes = v.minutes === undefined ? scenario.minutes : positive('minutes', v.minutes);
  const modes = v.compare ? [false, true] : [v.upstream];
  const tty = 'isTTY' in io.stderr && io.stderr.isTTY === true;
  const runs: LabelledRun[] = [];
  for (const upstream of modes) {
    const { run, env, hold } = await runFleet({
      scenario,
      seed,
      speed,
      minutes,
      upstream,
      time: v['wall-clock'] ? 'wall' : 'simulated',
      wallNow: () => Date.now(),
      ...(echoLevel(process.env.KRAFTSMAN_FLEET_LOG)
        ? {
            echo: {
              level: echoLevel(process.env.KRAFTSMAN_FLEET_LOG)!,
              write: (l: string) => io.stderr.write(l),
            },
          }
        : {}),
      onStart: (e) =>
        io.stderr.write(
          `${describeLocalDynamo(e.dynamo)}\nkubeconfig: ${e.kubeconfig}  (kubectl --kubeconfig ${e.kubeconfig} get nodes)\n`,
        ),
      onSample: (s, at) =>
        io.stderr.write(tty ? `\r${progressLine(s, at)}\u001b[K` : `${progressLine(s, at)}\n`),
    });
    if (tty) io.stderr.write('\n');
    runs.push({ label: upstream ? 'upstream' : 'kraftsman', run });
    if (v.hold && upstream === modes[modes.length - 1]) {
      io.stderr.write(
        'holding the fleet up: the functions keep firing once a minute in real time (Ctrl-C to stop)\n',
      );
      await hold(new Promise<void>((resolve) => process.once('SIGINT', () => resolve())));
    }
    await env.close();
  }
  const summaries = runs.map((r) => r.run.summary);
  io.stdout.write(summaryTable(runs.map((r) => r.run)));
  for (const r of runs)
    for (const line of brokenInvariants(r.run)) io.stderr.write(`invariant broken (${r.label}): ${line}\n`);
  writeFileSync(v.report, renderReport(runs));
  io.stderr.write(`report: ${v.report}\n`);
  if (v.json) {
    const [k, u] = summaries;
    writeFileSync(v.json, `${JSON.stringify(v.compare ? { kraftsman: k, upstream: u } : k, null, 2)}\n`);
  }
  return runs.every((r) => brokenInvariants(r.run).length === 0) ? 0 : 1;
}
