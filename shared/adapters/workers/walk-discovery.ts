// The WalkDiscovery port on worker threads (docs/mechanisms/parallel-discovery.md, "In Lambda"): a walk's input
// sent to each thread as plain data, verdicts checked with zod on their way back.
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import type { DiscoveryRun, WalkDiscovery, WalkDiscoveryInput } from '../../ports/discovery.ts';
import type { ClusterObjects } from '../../state/objects.ts';
import { WorkerSpeculation } from './discovery-workers.ts';
import { walkVerdictSchema, type WorkerInit } from './protocol.ts';

export interface WorkerWalkDiscoveryArgs {
  readonly workers: number;
  /** The instance types the pass launches, as specs (the same cached read the pass's types are built from). */
  readonly instanceTypes: (objects: ClusterObjects) => Promise<readonly InstanceTypeSpec[]>;
  /** The bundle's entry module (a Lambda's handler.mjs): what a thread starts on when this code runs bundled. */
  readonly bundleEntry: string | URL;
}

export function walkInit(input: WalkDiscoveryInput): WorkerInit {
  return {
    command: 'plan',
    objects: input.objects,
    instanceTypes: input.instanceTypes,
    snapshotOptions: input.snapshotOptions,
    now: input.now.toISOString(),
    options: input.options,
    claimedByCommands: [...input.claimedByCommands],
    ...(input.verdicts ? { verdicts: [...input.verdicts] } : {}),
    ...(input.runPast?.length ? { runPast: [...input.runPast] } : {}),
  };
}

export function workerWalkDiscovery(args: WorkerWalkDiscoveryArgs): WalkDiscovery {
  return {
    workers: args.workers,
    instanceTypes: args.instanceTypes,
    walk: (input): DiscoveryRun | undefined =>
      args.workers <= 1
        ? undefined
        : new WorkerSpeculation(
            args.workers,
            walkInit(input),
            (v) => walkVerdictSchema.parse(v),
            args.bundleEntry,
          ),
  };
}
