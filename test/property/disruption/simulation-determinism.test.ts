// The full simulation is a function of the pass and the candidates, nothing else: the pass shares its caches
// (scheduling view, node inputs, topology counts, the backlog, docs/mechanisms/simulation-copy.md) between
// simulations, and no simulation may leave a trace in them. On seeded ramp fleets every candidate is simulated
// in one pass context in order, in reverse, in a seeded shuffle and interleaved with two-node and held-proposal
// simulations, and each answer must equal the one a fresh pass context gives. Replay: KRAFTSMAN_SEED=<seed>.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fleetCatalog } from '../../../local/fleet/catalog.ts';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { consolidationFilter } from '../../../shared/disruption/method.ts';
import { passContext, type PassContext } from '../../../shared/disruption/pass-context.ts';
import { simulateCandidates, type Simulation } from '../../../shared/disruption/simulate-candidates.ts';
import { passOptions, type Candidate } from '../../../shared/disruption/types.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { buildSnapshot, type ClusterSnapshot } from '../../../shared/state/snapshot.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';
import { permute, SEED } from '../seed.ts';

const NOW = new Date('2026-11-30T00:00:00Z');
const FLEETS = 10;

/** Everything a simulation decides that a command depends on, as comparable text. */
const answer = (s: Simulation): string =>
  JSON.stringify({
    unscheduled: [...s.unscheduled].sort(),
    replacements: s.replacements.map((c) => ({
      pool: c.template.nodePool,
      pods: c.pods.map((p) => p.key).sort(),
      types: c.instanceTypes.map((t) => t.name),
      requirements: c.requirements.toString(),
    })),
    claims: s.allClaims.map((c) => c.pods.map((p) => p.key).sort()),
  });

type Ask = { readonly candidates: readonly Candidate[]; readonly held: readonly Candidate[] };
const label = (a: Ask) => `${a.candidates.map((c) => c.name).join('+')} held ${a.held.map((c) => c.name)}`;

/** The asks of one fleet: every candidate alone, neighbouring pairs, and each candidate with the next one held. */
function asks(cs: readonly Candidate[]): Ask[] {
  const out: Ask[] = cs.map((c) => ({ candidates: [c], held: [] }));
  for (let i = 0; i + 1 < cs.length; i += 2) {
    const [a, b] = [cs[i] as Candidate, cs[i + 1] as Candidate];
    out.push({ candidates: [a, b], held: [] }, { candidates: [a], held: [b] });
  }
  return out;
}

function checkFleet(snapshot: ClusterSnapshot, order: number): number {
  const fresh = (): PassContext => passContext(snapshot, NOW, passOptions({}));
  const shared = fresh();
  const candidates = buildCandidates({ snapshot, pdbs: shared.pdbs(), now: NOW }).candidates.filter(
    (c) => consolidationFilter(c) === true,
  );
  const all = asks(candidates);
  const alone = new Map(all.map((a) => [a, answer(simulateCandidates(fresh(), a.candidates, a.held))]));
  for (const sequence of [all, [...all].reverse(), permute(all, order)]) {
    for (const a of sequence) {
      expect(answer(simulateCandidates(shared, a.candidates, a.held)), label(a)).toBe(alone.get(a));
    }
  }
  return all.length;
}

describe('the full simulation is deterministic within a pass', () => {
  it(`gives every candidate the same answer in any order as in a fresh pass (${FLEETS} ramp fleets)`, () => {
    console.log(`simulation determinism: seed ${SEED} (KRAFTSMAN_SEED=${SEED} reproduces it)`);
    const types = buildInstanceTypes(fleetCatalog().instanceTypes);
    let simulated = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 4, max: 12 }),
        fc.integer({ min: 0, max: 160 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (seed, nodes, pending, order) => {
          const fleet = generateRamp({ nodes, pending, seed });
          const objects = recognize(fleet.objects.map((value) => ({ source: 'ramp', value }))).objects;
          simulated += checkFleet(buildSnapshot(objects, types), order);
        },
      ),
      { numRuns: FLEETS, seed: SEED },
    );
    console.log(`simulation determinism (seed ${SEED}): ${simulated} asks, each simulated 4 times`);
    expect(simulated).toBeGreaterThan(FLEETS);
  }, 120_000);
});
