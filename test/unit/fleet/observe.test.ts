// The fleet's per-minute sample (local/fleet/observe.ts): its bound line is the summary's pool-aware LP
// (report/fleet-bound.ts lpBound) up to FLOOR_MAX_PODS running pods and the divisible bound above, and the count
// that decides which is lpBound's own — DaemonSet, finished and pending pods left out — so skipping the LP above
// the cap changes no figure on either side of it.
import { describe, expect, it } from 'vitest';
import { fleetCatalog } from '../../../local/fleet/catalog.ts';
import { defaultCrds, KubeApiEmulator, type KubeObject } from '../../../local/kube-api/index.ts';
import { observe } from '../../../local/fleet/observe.ts';
import { emulatorObjects, FLOOR_MAX_PODS, lpBound } from '../../../local/fleet/report/fleet-bound.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';

type PodFields = KubeObject & {
  spec?: { nodeName?: string };
  status?: { phase?: string };
};
const isDaemonSetPod = (p: KubeObject): boolean =>
  ((p.metadata.ownerReferences ?? []) as { kind?: string }[]).some((o) => o.kind === 'DaemonSet');

/** A ramp fleet keeping exactly `running` bound non-DaemonSet pods, plus every DaemonSet pod and some others. */
function fleetWith(running: number, seed: number): KubeApiEmulator {
  const objects = generateRamp({ nodes: 200, pending: 40, seed }).objects as PodFields[];
  const counted = objects.filter((o) => o.kind === 'Pod' && o.spec?.nodeName && !isDaemonSetPod(o));
  if (counted.length < running + 2) throw new Error(`the 200-node ramp has ${counted.length} bound pods`);
  const dropped = new Set(counted.slice(running + 2));
  // Two more bound pods the count must leave out: one finished, one on its way out.
  const [done, leaving] = counted.slice(running, running + 2);
  if (!done || !leaving) throw new Error('two spare bound pods');
  done.status = { ...done.status, phase: 'Succeeded' };
  const kube = new KubeApiEmulator({ crds: defaultCrds() });
  kube.seed(objects.filter((o) => !dropped.has(o)));
  // A bound pod's delete starts its graceful termination: it stays, with its deletionTimestamp.
  const { namespace, name } = leaving.metadata as { namespace?: string; name: string };
  kube.store.delete(kube.typeOf('Pod'), namespace, name);
  const gone = kube.store.get(kube.typeOf('Pod'), namespace, name);
  if (!gone.metadata.deletionTimestamp) throw new Error('a deleted bound pod stays while it terminates');
  return kube;
}

describe('observe', () => {
  const seed = Number(process.env.KRAFTSMAN_SEED ?? Date.now() % 100_000);
  const catalog = fleetCatalog();

  it(`draws the LP at FLOOR_MAX_PODS running pods and the divisible bound one above (KRAFTSMAN_SEED=${seed})`, () => {
    console.log(`observe: KRAFTSMAN_SEED=${seed}`);
    const at = fleetWith(FLOOR_MAX_PODS, seed);
    const lp = lpBound(emulatorObjects(at), catalog);
    if (!lp) throw new Error(`lpBound answers at ${FLOOR_MAX_PODS} running pods`);
    const sample = observe(at, catalog);
    // DaemonSet, finished and leaving pods sit beside the counted ones, so a count that took them in would skip.
    expect(sample.bound).toBeGreaterThan(FLOOR_MAX_PODS);
    expect(sample.lowerBoundPerHour).toBe(lp.lpPerHour);

    const above = fleetWith(FLOOR_MAX_PODS + 1, seed);
    expect(lpBound(emulatorObjects(above), catalog)).toBeUndefined();
    const line = observe(above, catalog).lowerBoundPerHour;
    expect(line).toBeGreaterThan(0);
    // The divisible bound pools every request, so it stays at or under the pool-aware LP of one pod fewer.
    expect(line).toBeLessThanOrEqual(lp.lpPerHour + 1e-6);
  });
});
