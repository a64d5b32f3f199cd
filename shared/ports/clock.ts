// Clock port: the only source of time for the core and the use cases.
import type { WalkWork } from '../disruption/types.ts';

export interface Clock {
  now(): Date;
  /**
   * A simulated clock advances by the cost of the work reported (the local fleet's default mode, docs/fleet.md
   * "Time"); a real clock has no such method: its time passes by itself.
   */
  work?(kind: WalkWork, count: number): void;
}
