// One run of a decay fleet (local/fleet/scenarios/decay.ts) through the real handlers, with what every decay test
// checks of it: no invariant broken, no Node without its instance, and a completed command's candidates gone.
import { expect } from 'vitest';
import { runFleet } from '../../../local/fleet/run.ts';
import { fleetDecay, type FleetDecayShape } from '../../../local/fleet/scenarios/decay.ts';
import { brokenInvariants } from '../../../local/fleet/summary.ts';

export async function runDecay(name: string, shape: FleetDecayShape, seed: number, upstream: boolean) {
  const { run, env } = await runFleet({
    scenario: fleetDecay(name, shape),
    seed,
    speed: 1e6,
    minutes: shape.minutes,
    upstream,
    wallNow: Date.now,
  });
  try {
    expect(brokenInvariants(run)).toEqual([]);
    expect(run.details.nodesWithoutInstance).toEqual([]);
    // A completed command's candidates are gone: Node and NodeClaim.
    const names = (kind: string) =>
      new Set(env.kube.store.all(env.kube.typeOf(kind)).map((o) => o.metadata.name));
    const live = new Set([...names('Node'), ...names('NodeClaim')]);
    for (const c of run.summary.commands.filter((x) => x.outcome === 'completed'))
      for (const n of c.candidates) expect(live.has(n), n).toBe(false);
    return run;
  } finally {
    await env.close();
  }
}
