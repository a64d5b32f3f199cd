// Live state as the disruption use cases read it: the cluster through the Cluster port, prices through the
// injected instance-type source, and the store's open commands, nominations and verdicts, joined into the
// inputs the pure pass and validation take (open commands' nodes count as marked for deletion there).
import type { PassInputs } from '../disruption/pass.ts';
import type { PassOptions, Stopwatch } from '../disruption/types.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { buildSnapshot, type ClusterSnapshot } from '../state/snapshot.ts';
import type { Clock } from '../ports/clock.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { PassState } from '../ports/state-store/records.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import { commandExclusions } from './command-exclusions.ts';
import { bookedNodes } from '../provisioning/request-booking.ts';

export interface LiveDeps {
  readonly store: StateStore;
  readonly cluster: Cluster;
  readonly clock: Clock;
  /** Instance types with current prices (stored prices, or the catalog as fallback). */
  instanceTypes(objects: ClusterObjects): Promise<readonly InstanceType[]>;
}

export interface Live {
  readonly inputs: PassInputs;
  readonly state: PassState;
  readonly snapshot: ClusterSnapshot;
}

export async function readLive(
  deps: LiveDeps,
  cluster: string,
  options: PassOptions,
  stopwatch?: Stopwatch,
  /** Completes the store's view before it is joined in (admission: admission-view.ts). */
  complete?: (state: PassState, snapshot: ClusterSnapshot) => Promise<PassState>,
): Promise<Live> {
  const [read, stored] = await Promise.all([deps.cluster.readSnapshot(), deps.store.loadPassState(cluster)]);
  const types = await deps.instanceTypes(read.objects);
  const snapshot = buildSnapshot(read.objects, types, { poolReadiness: true });
  const state = complete ? await complete(stored, snapshot) : stored;
  const { claimedByCommands, nominated } = commandExclusions(state, snapshot);
  const now = deps.clock.now();
  return {
    snapshot,
    state,
    inputs: {
      snapshot,
      now,
      options,
      stopwatch,
      claimedByCommands,
      nominated,
      booked: bookedNodes(snapshot, now),
      verdicts: state.verdicts.size > 0 ? new Set(state.verdicts.keys()) : undefined,
    },
  };
}
