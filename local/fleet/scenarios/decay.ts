// `decay`: the load of a two-cloud inference and services fleet falls, and the fleet should consolidate to
// within 10% of the LP bound (docs/fleet-scenarios.md, decay). The fleet is decay-fleet.ts; the load falls
// by `fall` of the bound pods at each of `fallAt`, spread over the fleet.
import { FLEET_NOW } from '../../../test/fixtures/fleet/ids.ts';
import { batchMinute, type BatchStream } from './batch-stream.ts';
import { decayFleet, type DecayFleetShape } from './decay-fleet.ts';
import type { Scenario } from './index.ts';
import { shed } from './load.ts';
import { localize } from './localize.ts';
import { RAMP_WORLD } from './small-fleet.ts';
import type { DeployParameters } from '../wiring-parameters.ts';

export interface FleetDecayShape extends DecayFleetShape {
  readonly minutes: number;
  readonly fallAt: readonly number[];
  /** The share of the bound pods that leaves at each of `fallAt`. */
  readonly fall: number;
  /** The load falls in this namespace only (`web`: the services, not the head's pinned pods); unset, everywhere. */
  readonly fallIn?: string;
  /** Short GPU batch jobs arriving every minute while the fleet consolidates (batch-stream.ts). */
  readonly batch?: BatchStream;
  /** The deployment parameters its operator set (Scenario.parameters). */
  readonly parameters?: DeployParameters;
}

/** The scenario's one-line description: what falls, by how much and when, and how it was deployed. */
function describe(shape: FleetDecayShape, nodes: number, left: number, deployed: readonly string[]): string {
  const head = shape.head;
  const fleet = head
    ? "a walk's head and tail: " +
      `${head.nodes} one-pod ${head.type} nodes no consolidator can move, then ` +
      `${shape.nodes[head.pool]} service nodes, in ${head.pool}; the services fall`
    : `an inference and services fleet of ${nodes} nodes whose load falls`;
  const how = deployed.length > 0 ? `, deployed with ${deployed.join(' ')}` : '';
  return `${fleet} by ${Math.round((1 - left) * 100)}% (minutes ${shape.fallAt.join(', ')})${how}`;
}

export function fleetDecay(name: string, shape: FleetDecayShape): Scenario {
  const nodes = Object.values(shape.nodes).reduce((a, b) => a + b, 0);
  const left = (1 - shape.fall) ** shape.fallAt.length;
  const deployed = Object.entries(shape.parameters ?? {}).map(([k, v]) => `--param ${k}=${v}`);
  return {
    name,
    description: describe(shape, nodes, left, deployed),
    minutes: shape.minutes,
    world: RAMP_WORLD,
    ...(shape.parameters ? { parameters: shape.parameters } : {}),
    objects: (fleetSeed, runStart) =>
      localize(decayFleet(fleetSeed, shape), FLEET_NOW, runStart, RAMP_WORLD.gcpProject),
    atMinute(minute, e, pods) {
      if (shape.fallAt.includes(minute)) shed(e, pods, shape.fall, shape.fallIn);
      if (shape.batch) batchMinute(shape.batch, minute, e, pods);
    },
  };
}

/**
 * The decay of test/e2e/fleet/decay.test.ts (`--scenario decay-bound`): 32 nodes, half the load leaves at minute 1,
 * 60 minutes. The inference pools consolidate after 1m (the generator's GPU pools wait 10m) and every pool may
 * disrupt 30% of its nodes at once (10–20% in the generator), so the run has time to finish. The order commands
 * are admitted in moves with timing, and a replace whose pods a PDB drains one a minute lasts about 10 minutes: the
 * last command ended by minute 27–41 in every run measured, and nothing was admitted after, so 60 minutes end
 * settled (nothing in flight) whatever the order (docs/fleet.md, "Why `decay-bound` is shaped as it is").
 */
export const DECAY_BOUND: FleetDecayShape = {
  nodes: { 'inference-aws': 12, 'inference-gcp': 10, 'cpu-aws': 6, 'cpu-gcp': 4 },
  pendingShare: 0,
  minutes: 60,
  fallAt: [1],
  fall: 0.5,
  gpuConsolidateAfter: '1m',
  budget: '30%',
};

/**
 * DECAY_BOUND with a Job of two anti-affine 1-GPU workers arriving every minute from 2 to 12, each running 3, and
 * 40 minutes: while a Job is pending, upstream's simulations count its claims as replacements (attribution).
 */
export const DECAY_BATCH: FleetDecayShape = {
  ...DECAY_BOUND,
  minutes: 40,
  batch: { from: 2, until: 12, pods: 2, runs: 3, model: 'l4', requests: { cpu: '3', memory: '10Gi' } },
};

/**
 * DECAY_BOUND deployed with batched admission on (`--param maxCommands=5`, docs/deploy.md): the fork's answer to
 * one command per pass, measured against upstream mode, which forces one (docs/fleet.md, "Sooner than upstream").
 */
export const DECAY_BOUND_BATCHED: FleetDecayShape = {
  ...DECAY_BOUND,
  // The length its figures in docs/fleet.md were measured at (the sum over 36 minutes).
  minutes: 36,
  parameters: { maxCommands: '5' },
};

/**
 * A walk that never reaches its tail (docs/fleet.md, "Sooner than upstream: the walk budget"): cpu-aws holds a head
 * of one-pod nodes no consolidator can move (decay-fleet.ts, `head`) and a tail of service nodes half of whose pods
 * leave at minute 1. The walk budgets are scaled to the fleet in both modes (`singleNodeTimeout`,
 * `multiNodeTimeout`, docs/deploy.md): upstream restarts every walk at the head and times out inside it; the
 * coverage cycle resumes where the last walk stopped, and skipping unchanged negatives makes the head free after
 * its first evaluation (docs/mechanisms/coverage-cycle.md, negative-cache.md). An 80 ms walk reached about a
 * quarter of the 160-node head (load 5–7 on the 2-core machine): docs/fleet.md has the figures.
 */
export const DECAY_WALK: FleetDecayShape = {
  nodes: { 'inference-aws': 0, 'inference-gcp': 0, 'cpu-aws': 30, 'cpu-gcp': 0 },
  head: { pool: 'cpu-aws', nodes: 160, type: 'c7i.xlarge' },
  pendingShare: 0,
  minutes: 20,
  fallAt: [1],
  fall: 0.5,
  fallIn: 'web',
  budget: '30%',
  pdbEvery: 0,
  parameters: {
    singleNodeTimeout: '80ms',
    multiNodeTimeout: '50ms',
    skipUnchangedNegatives: 'true',
    maxCommands: '5',
  },
};
