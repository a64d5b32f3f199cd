// The local fleet's scenarios: each seeds a two-cloud fleet from the shared generator and may change the
// load as simulated minutes pass. Dates are relative to the run (the generator's objects carry none that expire).
import type { KubeApiEmulator, KubeObject } from '../../kube-api/index.ts';
import { generateRamp } from '../../../test/fixtures/fleet/ramp.ts';

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly minutes: number;
  objects(seed: number): unknown[];
  /** Called at the start of every simulated minute, before the functions due then. */
  atMinute?(minute: number, emulator: KubeApiEmulator): void;
}

type PodFields = { spec?: { nodeName?: string }; metadata: { ownerReferences?: { kind?: string }[] } };
const boundPods = (e: KubeApiEmulator): KubeObject[] =>
  e.store.all(e.typeOf('Pod')).filter((p) => {
    const f = p as PodFields;
    return f.spec?.nodeName && !f.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet');
  });

/** Deletes `fraction` of the bound, non-DaemonSet pods (every k-th, so the fall is spread over the fleet). */
function shed(e: KubeApiEmulator, fraction: number): void {
  const pods = boundPods(e);
  const step = Math.max(1, Math.round(1 / fraction));
  pods.forEach((p, i) => {
    if (i % step === 0)
      e.store.delete(e.typeOf('Pod'), String(p.metadata.namespace), String(p.metadata.name));
  });
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'decay',
    description: 'a capacity ramp (a pending backlog) on a few hundred nodes, then load falls by half',
    minutes: 30,
    objects: (seed) => generateRamp({ nodes: 200, pending: 400, seed }).objects,
    atMinute(minute, e) {
      // From minute 10, a tenth of the load leaves every 3 minutes, five times.
      if (minute >= 10 && minute <= 22 && (minute - 10) % 3 === 0) shed(e, 0.1);
    },
  },
  {
    name: 'ramp-3400',
    description: 'the benchmark ramp: 1,000 nodes and a pending backlog of 3,400 pods',
    minutes: 20,
    objects: (seed) => generateRamp({ nodes: 1000, pending: 3400, seed }).objects,
  },
];

export const scenarioNames = (): string[] => SCENARIOS.map((s) => s.name);
export const findScenario = (name: string): Scenario | undefined => SCENARIOS.find((s) => s.name === name);
