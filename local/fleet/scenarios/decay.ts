// `decay`: the load of a two-cloud inference and services fleet falls, and the fleet should consolidate to
// within 10% of the LP bound (docs/fleet.md, "Scenarios", decay). The fleet is decay-fleet.ts; the load falls
// by `fall` of the bound pods at each of `fallAt`, spread over the fleet.
import { FLEET_NOW } from '../../../test/fixtures/fleet/ids.ts';
import { batchMinute, type BatchStream } from './batch-stream.ts';
import { decayFleet, type DecayFleetShape } from './decay-fleet.ts';
import type { Scenario } from './index.ts';
import { shed } from './load.ts';
import { localize } from './localize.ts';
import { RAMP_WORLD } from './small-fleet.ts';

export interface FleetDecayShape extends DecayFleetShape {
  readonly minutes: number;
  readonly fallAt: readonly number[];
  /** The share of the bound pods that leaves at each of `fallAt`. */
  readonly fall: number;
  /** Short GPU batch jobs arriving every minute while the fleet consolidates (batch-stream.ts). */
  readonly batch?: BatchStream;
}

export function fleetDecay(name: string, shape: FleetDecayShape): Scenario {
  const nodes = Object.values(shape.nodes).reduce((a, b) => a + b, 0);
  const left = (1 - shape.fall) ** shape.fallAt.length;
  return {
    name,
    description: `an inference and services fleet of ${nodes} nodes whose load falls by ${Math.round((1 - left) * 100)}% (minutes ${shape.fallAt.join(', ')})`,
    minutes: shape.minutes,
    world: RAMP_WORLD,
    objects: (seed, runStart) =>
      localize(decayFleet(seed, shape), FLEET_NOW, runStart, RAMP_WORLD.gcpProject),
    atMinute(minute, e, pods) {
      if (shape.fallAt.includes(minute)) shed(e, pods, shape.fall);
      if (shape.batch) batchMinute(shape.batch, minute, e, pods);
    },
  };
}
