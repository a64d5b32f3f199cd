// The local fleet's scenarios: each seeds a two-cloud fleet from the shared generator and may change the
// load as simulated minutes pass. Dates are relative to the run (localize.ts).
import type { KubeApiEmulator, KubeObject } from '../../kube-api/index.ts';
import { FLEET_NOW } from '../../../test/fixtures/fleet/ids.ts';
import { generateRamp } from '../../../test/fixtures/fleet/ramp.ts';
import type { FleetEnvironment, FleetWorld } from '../environment.ts';
import type { PodLedger } from '../pods.ts';
import { candidateDeleted } from './candidate-deleted.ts';
import { crossCloud } from './cross-cloud.ts';
import { DECAY_BATCH, DECAY_BOUND, DECAY_BOUND_BATCHED, DECAY_WALK, fleetDecay } from './decay.ts';
import { gangRefused } from './gang-refused.ts';
import { gangs } from './gangs.ts';
import { Timeline } from '../events.ts';
import { boundPods, remove, shed } from './load.ts';
import { localize } from './localize.ts';
import { RAMP_WORLD } from './small-fleet.ts';
import { spotInterruption } from './spot-interruption.ts';
import type { TimedScenario } from './timed.ts';
import type { DeployParameters } from '../wiring-parameters.ts';

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly minutes: number;
  /** The cluster, GCE project and zones the fleet's objects name. */
  readonly world: FleetWorld;
  /** The fleet's objects, their dates relative to `runStart`. */
  objects(seed: number, runStart: Date): KubeObject[];
  /** Called at the start of every simulated minute, before the functions due then. */
  atMinute?(minute: number, emulator: KubeApiEmulator, pods: PodLedger): void;
  /**
   * The deployment parameters its operator set (`--param maxCommands=5`), given to every function's environment
   * as serverless.yml gives them; unset, the functions' defaults (Karpenter's behaviour). `--upstream` still
   * forces Karpenter's behaviour over them.
   */
  readonly parameters?: DeployParameters;
  /** Called right after atMinute: the scenario's timeline of cloud and operator events (local/fleet/events.ts). */
  inject?(minute: number, env: FleetEnvironment, now: Date): Promise<void>;
}

const GANG_ANNOTATION = 'scheduling.k8s.io/group-name';

/** The gangs' jobs complete: every bound gang pod leaves, as its finished Volcano Job lets it go. */
function finishGangs(e: KubeApiEmulator, pods: PodLedger): void {
  const gangPods = boundPods(e).filter((p) => {
    const annotations = (p as { metadata: { annotations?: Record<string, string> } }).metadata.annotations;
    return annotations?.[GANG_ANNOTATION] !== undefined;
  });
  remove(e, pods, gangPods);
}

const ramp = (nodes: number, pending: number) => (seed: number, runStart: Date) =>
  localize(generateRamp({ nodes, pending, seed }).objects, FLEET_NOW, runStart, RAMP_WORLD.gcpProject);

export interface DecayShape {
  readonly nodes: number;
  readonly pending: number;
  readonly minutes: number;
  /** The load falls by a tenth of the bound pods at each of these minutes. */
  readonly shedAt: readonly number[];
  /**
   * The minute the running training jobs finish (their Volcano gangs' pods leave). Until then their pods hold
   * `karpenter.sh/do-not-disrupt`, which no consolidator may move: on the ramp fleet they are most of the cost
   * (on-demand 8-GPU nodes), so a decay that never ends them can come nowhere near the bound (docs/fleet.md).
   */
  readonly trainingEndsAt?: number;
}

/** A capacity ramp (the generator's pending backlog) on `nodes` nodes, then the load falls. */
export function decayScenario(name: string, shape: DecayShape): Scenario {
  return {
    name,
    description: `a capacity ramp (${shape.pending} pending pods) on ${shape.nodes} nodes, then load falls by ${Math.round((1 - 0.9 ** shape.shedAt.length) * 100)}%${shape.trainingEndsAt === undefined ? '' : ` and the training jobs finish (minute ${shape.trainingEndsAt})`}`,
    minutes: shape.minutes,
    world: RAMP_WORLD,
    objects: ramp(shape.nodes, shape.pending),
    atMinute(minute, e, pods) {
      if (minute === shape.trainingEndsAt) finishGangs(e, pods);
      if (shape.shedAt.includes(minute)) shed(e, pods, 0.1);
    },
  };
}

export interface RampShape {
  readonly nodes: number;
  readonly pending: number;
  readonly minutes: number;
}

/**
 * The benchmark ramp (docs/benchmarks.md): `nodes` nodes and a backlog of `pending` pods; at minute 1 an operator
 * drops an instance type from the cpu-aws NodePool, so its nodes drift while the backlog is provisioned.
 */
export function rampScenario(name: string, shape: RampShape): TimedScenario {
  const timeline = new Timeline([{ at: 1, inject: { kind: 'drop-type', pool: 'cpu-aws' } }]);
  return {
    name,
    description: `the benchmark ramp: ${shape.nodes.toLocaleString('en-US')} nodes, a pending backlog of ${shape.pending.toLocaleString('en-US')} pods, and a NodePool edit that drifts nodes`,
    minutes: shape.minutes,
    world: RAMP_WORLD,
    objects: ramp(shape.nodes, shape.pending),
    inject: (minute, env, now) => timeline.inject(minute, env, now),
    timeline,
  };
}

export const SCENARIOS: readonly Scenario[] = [
  // The GPU pools wait consolidateAfter (10 minutes) after a node's last pod change: the load falls early enough
  // that the run sees those nodes become consolidatable (docs/fleet.md, Scenarios).
  decayScenario('decay', {
    nodes: 100,
    pending: 200,
    minutes: 20,
    shedAt: [2, 3, 4, 5, 6],
    trainingEndsAt: 2,
  }),
  rampScenario('ramp-3400', { nodes: 1000, pending: 3400, minutes: 20 }),
  // The decay a consolidator can bring to its LP bound, and the same with GPU batch jobs arriving (docs/fleet.md).
  fleetDecay('decay-bound', DECAY_BOUND),
  fleetDecay('decay-batch', DECAY_BATCH),
  fleetDecay('decay-bound-batched', DECAY_BOUND_BATCHED),
  fleetDecay('decay-walk', DECAY_WALK),
  gangRefused(),
  spotInterruption(),
  candidateDeleted(),
  crossCloud(),
  gangs(),
];

export const scenarioNames = (): string[] => SCENARIOS.map((s) => s.name);
export const findScenario = (name: string): Scenario | undefined => SCENARIOS.find((s) => s.name === name);
