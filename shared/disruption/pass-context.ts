// What one disruption pass reads, and how often. Kraftsman (docs/mechanisms/pass-reads.md): the scheduling view,
// the pending backlog and the PDB limits are read once per pass and the backlog is copied out per call (the
// simulation appends candidate pods to it). Upstream mode re-reads all of it for every simulation, as
// Karpenter's SimulateScheduling does, so the same build can measure both.
import { podKey, type Pod } from '../model/pod.ts';
import { schedulingOptions } from '../provisioning/simulate.ts';
import type { PendingPod } from '../scheduling/pod-state.ts';
import type { SchedulingOptions } from '../scheduling/scheduler.ts';
import { pendingIgnoreReason } from '../state/pods.ts';
import { volumeIndex } from '../state/volumes.ts';
import { passView, type PassView } from '../state/scheduling-view.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { pdbLimits, type PdbLimits } from './pdb-limits.ts';
import type { PassOptions, Stopwatch } from './types.ts';
import { incompatibleWithEveryPool } from '../provisioning/verdicts.ts';
import { backlogReduction, type BacklogReduction } from './backlog-reduction.ts';

export const STAGES = ['state-copy', 'pod-gather', 'construction', 'simulation'] as const;
export type Stage = (typeof STAGES)[number];

export interface PassContext {
  readonly snapshot: ClusterSnapshot;
  readonly now: Date;
  readonly options: PassOptions;
  readonly stopwatch: Stopwatch;
  /** Milliseconds spent per stage across the pass (karpenter_voluntary_disruption stage timings). */
  readonly timings: Record<Stage, number>;
  /** Per-candidate answers of the delta simulation this pass: 'decided', or why it left the candidate to the full one. */
  readonly deltaOutcomes: Record<string, number>;
  /**
   * Per candidate the delta simulation decided: how many backlog pods its full simulation places elsewhere than
   * the base did (the first-fit cascade the candidate's pods set off; docs/mechanisms/delta-simulation.md).
   */
  readonly deltaReplaced: number[];
  /** Nodes past expireAfter this pass: deleted by the expiration controller, so treated as deleting. */
  readonly expired: Set<string>;
  view(): PassView;
  pdbs(): PdbLimits;
  /** Provisionable unbound pods, as a fresh array the caller may extend. */
  backlog(view: PassView): PendingPod[];
  schedulingOptions(view: PassView): SchedulingOptions;
  /** The backlog pods a simulation moving `moving` needs (all of them unless reduceBacklog is on). */
  relevantBacklog(view: PassView, backlog: PendingPod[], moving: readonly PendingPod[]): PendingPod[];
  /** Times `fn` into a stage. */
  timed<T>(stage: Stage, fn: () => T): T;
}

export const ZERO_STOPWATCH: Stopwatch = { elapsedMs: () => 0 };

export function passContext(
  snapshot: ClusterSnapshot,
  now: Date,
  options: PassOptions,
  stopwatch: Stopwatch = ZERO_STOPWATCH,
  /** podKeys the provisioner found incompatible with every NodePool (through the StateStore port), if any. */
  verdicts?: ReadonlySet<string>,
): PassContext {
  const timings: Record<Stage, number> = { 'state-copy': 0, 'pod-gather': 0, construction: 0, simulation: 0 };
  const expired = new Set<string>();
  const deltaOutcomes: Record<string, number> = {};
  const deltaReplaced: number[] = [];
  const timed = <T>(stage: Stage, fn: () => T): T => {
    const start = stopwatch.elapsedMs();
    try {
      return fn();
    } finally {
      timings[stage] += stopwatch.elapsedMs() - start;
    }
  };
  const readBacklog = (): Pod[] => {
    const volumes = volumeIndex(snapshot.objects);
    return snapshot.objects.pods.filter(
      (p) => !p.spec.nodeName && pendingIgnoreReason(p, !options.upstream, volumes) === undefined,
    );
  };
  const readPdbs = (): PdbLimits => pdbLimits(snapshot.objects.pdbs, snapshot.objects.pods);
  if (options.upstream) {
    return {
      snapshot,
      now,
      options,
      stopwatch,
      timings,
      deltaOutcomes,
      deltaReplaced,
      timed,
      expired,
      view: () => timed('state-copy', () => passView(snapshot)),
      pdbs: () => timed('pod-gather', readPdbs),
      backlog: (view) => timed('pod-gather', () => readBacklog().map((p) => view.pendingPod(p))),
      schedulingOptions: (view) => schedulingOptions(view, true),
      relevantBacklog: (_view, backlog) => backlog,
    };
  }
  let view: PassView | undefined;
  let pdbs: PdbLimits | undefined;
  let backlog: { view: PassView; pods: PendingPod[] } | undefined;
  let reduction: { view: PassView; r: BacklogReduction } | undefined;
  return {
    snapshot,
    now,
    options,
    stopwatch,
    timings,
    deltaOutcomes,
    deltaReplaced,
    timed,
    expired,
    view: () => (view ??= timed('state-copy', () => passView(snapshot))),
    pdbs: () => (pdbs ??= timed('pod-gather', readPdbs)),
    backlog: (v) => {
      if (backlog?.view !== v) {
        backlog = {
          view: v,
          pods: timed('pod-gather', () => {
            const pods = readBacklog();
            const excluded = options.excludeIncompatible
              ? (verdicts ?? incompatibleWithEveryPool(v, pods, schedulingOptions(v, false)))
              : new Set<string>();
            return pods.filter((p) => !excluded.has(podKey(p))).map((p) => v.pendingPod(p));
          }),
        };
      }
      // Copied out per call: the simulation appends the candidate's pods (docs/mechanisms/pass-reads.md).
      return [...backlog.pods];
    },
    schedulingOptions: (v) => schedulingOptions(v, false),
    relevantBacklog: (v, backlog, moving) => {
      if (!options.reduceBacklog) return backlog;
      if (reduction?.view !== v) reduction = { view: v, r: backlogReduction(v) };
      const r = reduction.r;
      return timed('pod-gather', () => r.relevant(backlog, moving));
    },
  };
}
