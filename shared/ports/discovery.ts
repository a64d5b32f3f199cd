// Discovery workers as the loop sees them (docs/mechanisms/parallel-discovery.md): threads that work out the
// single-node walk's verdicts ahead of it, each rebuilding the pass from the same inputs as plain data.
import type { WalkSpeculation } from '../disruption/speculation.ts';
import type { PassOptions } from '../disruption/types.ts';
import type { InstanceTypeSpec } from '../model/catalog.ts';
import type { ClusterObjects } from '../state/objects.ts';
import type { SnapshotOptions } from '../state/snapshot.ts';

/** Everything a worker needs to rebuild the pass the walk runs in (passSetup in shared/disruption/pass.ts). */
export interface WalkDiscoveryInput {
  /** The objects of the snapshot the pass judges (after the sync gate), with the specs its types were built from. */
  readonly objects: ClusterObjects;
  readonly instanceTypes: readonly InstanceTypeSpec[];
  readonly snapshotOptions: SnapshotOptions;
  readonly now: Date;
  readonly options: PassOptions;
  readonly claimedByCommands: ReadonlySet<string>;
  readonly verdicts?: ReadonlySet<string>;
  /** In-flight NodeClaims the sync gate let the pass run past (sync-gate.ts withoutUnlaunched): left out. */
  readonly runPast?: readonly string[];
}

/** One walk's speculation; close() stops its threads. */
export interface DiscoveryRun extends WalkSpeculation {
  close(): void;
}

export interface WalkDiscovery {
  /** How many worker threads a walk gets (1: none, the walk simulates alone). */
  readonly workers: number;
  /**
   * The instance types the pass launches, as the specs they are built from (the same cached read as the
   * consolidate deps' instanceTypes): a worker rebuilds them from plain data.
   */
  instanceTypes(objects: ClusterObjects): Promise<readonly InstanceTypeSpec[]>;
  /** Starts nothing yet (threads start at the walk's begin); undefined with one worker. */
  walk(input: WalkDiscoveryInput): DiscoveryRun | undefined;
}
