// One seed per run for every property suite: random unless KRAFTSMAN_SEED pins it, printed so a failure can be
// replayed exactly (`KRAFTSMAN_SEED=<seed> npx vitest run test/property`), and at least 1,000 cases per property.
import type { Parameters } from 'fast-check';

function readSeed(): number {
  const pinned = process.env.KRAFTSMAN_SEED;
  if (pinned !== undefined && pinned !== '') {
    const n = Number(pinned);
    if (!Number.isSafeInteger(n))
      throw new Error(`KRAFTSMAN_SEED must be an integer, got ${JSON.stringify(pinned)}`);
    return n;
  }
  return Math.floor(Math.random() * 2 ** 31);
}

export const SEED = readSeed();
let printed = false;

/** fast-check parameters for one property: the run's seed, ≥ 1,000 runs (KRAFTSMAN_PROPERTY_RUNS may raise it). */
export function propertyRuns<T>(extra: Parameters<T> = {}): Parameters<T> {
  if (!printed) {
    printed = true;
    console.log(`property seed ${SEED} (replay: KRAFTSMAN_SEED=${SEED})`);
  }
  const asked = Number(process.env.KRAFTSMAN_PROPERTY_RUNS ?? '');
  const numRuns = Number.isSafeInteger(asked) && asked > 1000 ? asked : 1000;
  // fast-check prints the seed and the shrunk counterexample on failure; the seed above reproduces the run.
  return { seed: SEED, numRuns, ...extra };
}

/** A seeded permutation (Fisher–Yates over a mulberry32 stream): a real shuffle, not a stable sort. */
export function permute<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
