// What the scheduler reports about each gang it places (an optional hook of SchedulingInput): the NodePool limits
// left just before the gang, and how the all-or-nothing placement went. The delta simulation uses it to re-place
// a displaced gang member against the base (docs/mechanisms/delta-simulation.md, point 5).
import type { ResourceList } from '../model/resources.ts';

export interface GangRecord {
  /** namespace/name of the PodGroup. */
  readonly gang: string;
  /** Remaining limits per NodePool that has limits, as they stood when the gang's first member left the queue. */
  readonly remaining: ReadonlyMap<string, ResourceList>;
  readonly members: number;
  readonly placed: number;
  /** Rounds of placeGang: 1 when every member that landed did so at its first attempt. */
  readonly rounds: number;
  readonly committed: boolean;
}

export type GangObserver = (record: GangRecord) => void;
