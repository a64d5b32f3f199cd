// A scenario with a timeline of injected events (local/fleet/events.ts) on a small fleet: its objects come
// from small-fleet.ts, localized to the run, and the timeline is kept on the scenario so a test can read
// what was injected and which termination causes were stamped.
import { FLEET_NOW } from '../../../test/fixtures/fleet/ids.ts';
import { Timeline, type TimelineEntry } from '../events.ts';
import type { Scenario } from './index.ts';
import { localize } from './localize.ts';
import { RAMP_WORLD } from './small-fleet.ts';

export interface TimedScenario extends Scenario {
  readonly timeline: Timeline;
}

export interface TimedShape {
  readonly name: string;
  readonly description: string;
  readonly minutes: number;
  /** The fleet's objects as generated (dates before FLEET_NOW). */
  readonly objects: (seed: number) => unknown[];
  readonly timeline: readonly TimelineEntry[];
}

export function timedScenario(shape: TimedShape): TimedScenario {
  const timeline = new Timeline(shape.timeline);
  return {
    name: shape.name,
    description: shape.description,
    minutes: shape.minutes,
    world: RAMP_WORLD,
    objects: (fleetSeed, runStart) =>
      localize(shape.objects(fleetSeed), FLEET_NOW, runStart, RAMP_WORLD.gcpProject),
    inject: (minute, env, now) => timeline.inject(minute, env, now),
    timeline,
  };
}
