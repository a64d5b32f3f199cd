// An offering a cloud refused for lack of capacity: what a launch reports and the StateStore remembers
// (with a TTL), so the scheduler skips it until capacity may be back. One shape for both.
import type { CapacityType } from './labels.ts';

export interface UnavailableOffering {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  /** The cloud's own error code, e.g. InsufficientInstanceCapacity or ZONE_RESOURCE_POOL_EXHAUSTED. */
  readonly reason: string;
}
