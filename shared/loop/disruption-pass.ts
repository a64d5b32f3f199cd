// The consolidation pass use case (docs/architecture.md, "One consolidation pass", steps 3–6) against the
// ports: read the pass state in one round trip, run the pure pass with the coverage cycle, unseen pools,
// negative cache, verdicts, nominations and open commands it holds, persist what the pass learned, and emit
// the pass metrics.
// Admission is a separate use case.
import {
  KARPENTER_METRICS,
  KRAFTSMAN_METRICS,
  LABELS,
  STAGE_LABELS,
  CONSOLIDATION_TYPE,
  reasonLabel,
} from '../disruption/metric-names.ts';
import { METHODS } from '../disruption/methods.ts';
import { runPass, type PassResult } from '../disruption/pass.ts';
import { STAGES } from '../disruption/pass-context.ts';
import type { PassOptions, Stopwatch } from '../disruption/types.ts';
import { clusterStateMetrics } from '../state/cluster-metrics.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import type { Clock } from '../ports/clock.ts';
import type { DiscoveryRun, WalkDiscoveryInput } from '../ports/discovery.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import { commandExclusions } from './command-exclusions.ts';
import { bookedNodes } from '../provisioning/request-booking.ts';
import { consolidatedGate } from './consolidated-skip.ts';
import { emitNegativeCache, loadNegativeCache } from './negative-cache-io.ts';
import { writeBack } from './pass-write-back.ts';
import { loadReplacementHolds } from './replacement-backoff.ts';
import { checkSync, unsyncedPass } from './sync-check.ts';
import { clockStopwatch } from './stopwatch.ts';

export interface DisruptionPassDeps {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly metrics: Metrics;
  /** Wall time for the walk budgets (a Lambda's elapsed time); defaults to the clock. */
  readonly stopwatch?: Stopwatch;
}

export interface DisruptionPassRequest {
  readonly cluster: string;
  readonly snapshot: ClusterSnapshot;
  readonly options: PassOptions;
  /** Nodes an invalid object concerns (untouchable.ts): never candidates. */
  readonly untouchable?: ReadonlySet<string>;
  /** The lease's: once aborted (the lease was lost), the pass writes nothing back (pass-write-back.ts). */
  readonly signal?: AbortSignal;
  /**
   * Discovery workers for the single-node walk (docs/mechanisms/parallel-discovery.md), given what the pass
   * decided before it: the caller binds the instance types and snapshot options it built the snapshot with.
   */
  readonly discovery?: (
    input: Omit<WalkDiscoveryInput, 'instanceTypes' | 'snapshotOptions'>,
  ) => DiscoveryRun | undefined;
}

export async function disruptionPass(
  deps: DisruptionPassDeps,
  request: DisruptionPassRequest,
): Promise<PassResult> {
  const { store, clock } = deps;
  const start = clock.now();
  const stopwatch = deps.stopwatch ?? clockStopwatch(clock, start);
  const state = await store.loadPassState(request.cluster);
  // what the cluster holds, every pass, whatever the pass then decides (a Karpenter dashboard's gauges)
  for (const m of clusterStateMetrics(request.snapshot)) deps.metrics.gauge(m.name, m.value, m.labels);
  // The sync gate (sync-check.ts): no pass on a view where a claim it must wait for has not launched.
  const sync = checkSync(deps.metrics, request.snapshot, state.openCommands, request.options.syncPolicy);
  if (!sync.verdict.proceed) {
    deps.metrics.count(KRAFTSMAN_METRICS.passOutcomesTotal, 1, { [LABELS.outcome]: 'unsynced' });
    return unsyncedPass(state.unseenPools.pools);
  }
  const cache = loadNegativeCache(state);
  const { claimedByCommands, nominated } = commandExclusions(state, sync.snapshot);
  const backoff = await loadReplacementHolds(store, request.cluster, start);
  const gate = consolidatedGate(state, sync.snapshot, claimedByCommands, request.options, start);
  const verdicts = state.verdicts.size > 0 ? new Set(state.verdicts.keys()) : undefined;
  const speculation = request.discovery?.({
    objects: sync.snapshot.objects,
    now: start,
    options: request.options,
    claimedByCommands,
    verdicts,
    runPast: runPast(request.snapshot, sync.snapshot),
  });
  let result: PassResult;
  try {
    result = runPass({
      snapshot: sync.snapshot,
      now: start,
      options: request.options,
      stopwatch,
      hints: {
        coverage: state.coverage,
        negativeCache: cache,
        unseenPools: state.unseenPools.pools,
        replacementHolds: backoff.holds,
      },
      claimedByCommands,
      nominated,
      booked: bookedNodes(sync.snapshot, start),
      verdicts,
      untouchable: request.untouchable,
      consolidated: gate.consolidated,
      speculation,
    });
  } finally {
    speculation?.close();
  }
  const loaded = { coverage: state.coverage, negativeCache: cache, unseenPools: state.unseenPools };
  if ((await writeBack(store, request.cluster, loaded, result.memory, request.signal)) === 'written') {
    await backoff.settle();
    await gate.record(store, deps.metrics, request.cluster, result);
  }
  emit(deps.metrics, result, sync.snapshot);
  emitNegativeCache(deps.metrics, result);
  return result;
}

/** In-flight claims the sync gate let the pass run past: a discovery worker leaves them out too. */
function runPast(before: ClusterSnapshot, after: ClusterSnapshot): string[] {
  if (before.inFlight.length === after.inFlight.length) return [];
  const kept = new Set(after.inFlight.map((n) => n.name));
  return before.inFlight.filter((n) => !kept.has(n.name)).map((n) => n.name);
}

function emit(metrics: Metrics, r: PassResult, snapshot: ClusterSnapshot): void {
  metrics.count(KRAFTSMAN_METRICS.passOutcomesTotal, 1, { [LABELS.outcome]: r.outcome });
  // A skip names its node; the NodePool label is the node's pool in the snapshot the pass judged.
  const poolOf = new Map(snapshot.nodes.map((n) => [n.name, n.nodePool ?? '']));
  for (const stage of STAGES)
    metrics.observe(KRAFTSMAN_METRICS.passStageDurationSeconds, r.timings[stage] / 1000, {
      [LABELS.stage]: STAGE_LABELS[stage],
    });
  for (const s of r.skipped)
    metrics.count(KRAFTSMAN_METRICS.candidateSkipsTotal, 1, {
      [LABELS.reason]: s.reason,
      [LABELS.method]: s.method ?? 'none',
      [LABELS.nodePool]: poolOf.get(s.node) || 'none',
    });
  for (const [pool, d] of r.depth ?? []) {
    metrics.gauge(KRAFTSMAN_METRICS.walkDepth, d.reached, { [LABELS.nodePool]: pool });
    metrics.gauge(KRAFTSMAN_METRICS.walkCandidates, d.candidates, { [LABELS.nodePool]: pool });
    // The coverage cycle only ever holds current candidates (reconciled each pass), so this is its fraction.
    const evaluated = r.memory.coverage?.get(pool)?.evaluated.size;
    if (evaluated !== undefined && d.candidates > 0)
      metrics.gauge(KRAFTSMAN_METRICS.walkCycleCoverage, Math.min(1, evaluated / d.candidates), {
        [LABELS.nodePool]: pool,
      });
  }
  if (r.timedOut && r.method !== undefined) {
    metrics.count(KARPENTER_METRICS.consolidationTimeoutsTotal, 1, {
      [LABELS.consolidationType]: CONSOLIDATION_TYPE[r.method],
    });
  }
  const method = METHODS.find((m) => m.name === r.method);
  for (const cmd of r.commands) {
    metrics.count(KRAFTSMAN_METRICS.proposalsHeldTotal, 1);
    if (method) {
      metrics.count(KARPENTER_METRICS.decisionsTotal, 1, {
        [LABELS.decision]: cmd.replacements.length ? 'replace' : 'delete',
        [LABELS.reason]: reasonLabel(method.reason),
        [LABELS.consolidationType]: CONSOLIDATION_TYPE[method.name],
      });
    }
  }
}
