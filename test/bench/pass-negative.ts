// Measure 5 of bench:pass: the negative cache over 10 passes on an unchanged fleet whose candidates all
// simulate to no-ops (ramp-3400 derives its NodeClaims, which carry no version and so no fingerprint; this
// fleet has real claims and resource versions). Hit rate in observe-only mode; simulation time with skipping off vs on.
import { performance } from 'node:perf_hooks';
import { runPass } from '../../shared/disruption/pass.ts';
import type { WalkHints } from '../../shared/disruption/method.ts';
import { passOptions } from '../../shared/disruption/types.ts';
import { NOW, snapshotOf } from '../unit/disruption/fixtures.ts';
import { noOpFleet as fleet } from '../fixtures/fleet/no-op-fleet.ts';

export function negativeCacheBench(nodes = 150): {
  nodes: number;
  hitRate: number;
  offMs: number;
  onMs: number;
} {
  const snapshot = snapshotOf(fleet(nodes));
  const stopwatch = { elapsedMs: () => performance.now() };
  const run = (skip: boolean) => {
    let memory: WalkHints | undefined;
    let hits = 0;
    let lookups = 0;
    let simulation = 0;
    for (let i = 0; i < 10; i++) {
      const now = new Date(NOW.getTime() + i * 10_000);
      const r = runPass({
        snapshot,
        now,
        options: passOptions({ skipUnchangedNegatives: skip }),
        stopwatch,
        hints: memory,
      });
      memory = r.memory;
      simulation += r.timings.simulation + r.timings.construction;
      const t = r.negativeTally;
      if (t) {
        hits += t.byResult.hit;
        lookups += Object.values(t.byResult).reduce((a, b) => a + b, 0);
      }
    }
    return { hitRate: hits / Math.max(1, lookups), simulation };
  };
  const off = run(false);
  const on = run(true);
  return { nodes, hitRate: off.hitRate, offMs: off.simulation, onMs: on.simulation };
}
