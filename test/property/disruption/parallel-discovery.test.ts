// Parallel discovery changes nothing a user sees (docs/mechanisms/parallel-discovery.md): `kraftsman plan` and
// `kraftsman census` print byte-identical JSON with --workers 1 and --workers 3, on seeded ramp fleets (GPUs,
// training gangs, spread, hundreds of pods) and on the delta property's fleets, with up to four held proposals.
// Through the CLI's module entry (main), not the binary; the consumer never takes a candidate back from the workers
// here, so every candidate sent is a worker's answer (the e2e test runs the default). Replay: KRAFTSMAN_SEED=<seed>.
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DISCOVERY_TUNING, SPECULATION_TOTALS } from '../../../shared/adapters/workers/index.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';
import { runCli, tempFile } from '../../e2e/cli/run-cli.ts';
import { SEED } from '../seed.ts';
import { deltaCatalogDocument, fleetArb, fleetObjects } from './delta-fleets.ts';

/** The ramp generator's clock (test/fixtures/fleet/ids.ts) and the delta fixtures' (test/unit/disruption/fixtures.ts). */
const RAMP_NOW = '2026-11-30T00:00:00Z';
const DELTA_NOW = '2026-09-01T12:00:00Z';
const RAMP_FLEETS = 5;
const DELTA_FLEETS = 5;

/** One command's JSON with one and with three workers; the exit code and stderr too. */
async function bothWays(argv: readonly string[]): Promise<void> {
  const one = await runCli([...argv, '--workers', '1']);
  const three = await runCli([...argv, '--workers', '3']);
  expect(one.code, one.stderr).toBe(0);
  expect({ code: three.code, stderr: three.stderr }).toEqual({ code: one.code, stderr: one.stderr });
  expect(three.stdout).toBe(one.stdout);
}

async function checkFleet(file: string, maxCommands: number, extra: readonly string[]): Promise<void> {
  const common = ['-f', file, '-o', 'json', ...extra];
  await bothWays(['plan', ...common, '--max-commands', String(maxCommands)]);
  await bothWays(['census', ...common]);
}

describe('--workers N prints what one worker prints', () => {
  it(`on ${RAMP_FLEETS} ramp fleets and ${DELTA_FLEETS} delta fleets`, async () => {
    console.log(`parallel discovery: seed ${SEED} (KRAFTSMAN_SEED=${SEED} reproduces it)`);
    const before = SPECULATION_TOTALS.answered;
    DISCOVERY_TUNING.takeBack = false;
    onTestFinished(() => void (DISCOVERY_TUNING.takeBack = true));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 12, max: 40 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 4 }),
        async (seed, nodes, pending, maxCommands) => {
          const fleet = generateRamp({ nodes, pending, seed });
          await checkFleet(tempFile('ramp.json', JSON.stringify(fleet.objects)), maxCommands, [
            '--now',
            RAMP_NOW,
          ]);
        },
      ),
      { numRuns: RAMP_FLEETS, seed: SEED, endOnFailure: true },
    );
    const catalog = tempFile('catalog.json', JSON.stringify(deltaCatalogDocument()));
    await fc.assert(
      fc.asyncProperty(fleetArb, fc.integer({ min: 1, max: 4 }), async (f, maxCommands) => {
        const file = tempFile('delta.json', JSON.stringify(fleetObjects(f)));
        await checkFleet(file, maxCommands, ['--catalog', catalog, '--now', DELTA_NOW]);
      }),
      { numRuns: DELTA_FLEETS, seed: SEED, endOnFailure: true },
    );
    const answered = SPECULATION_TOTALS.answered - before;
    console.log(`parallel discovery (seed ${SEED}): workers answered ${answered} candidates`);
    expect(answered).toBeGreaterThan(0);
  }, 240_000);
});
