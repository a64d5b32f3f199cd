// The consolidated-state skip across invocations (docs/mechanisms/consolidated-state.md): a pass whose view is the
// one the last pass found consolidated, less than five minutes ago, with no drifted node, does not walk; it
// costs the snapshot read and the pass-state read it already made, and is counted. A pass that runs stores the
// view it found consolidated, or forgets the stored one.
import {
  anyDrifted,
  consolidationFingerprint,
  isConsolidated,
  nextConsolidatedView,
} from '../disruption/consolidated-state.ts';
import { KRAFTSMAN_METRICS, LABELS } from '../disruption/metric-names.ts';
import { STAGES } from '../disruption/pass-context.ts';
import type { PassResult } from '../disruption/pass.ts';
import type { PassOptions } from '../disruption/types.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { PassState } from '../ports/state-store/records.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';

export interface ConsolidatedGate {
  /** Nothing changed since the fleet was last found consolidated: the pass need not run. */
  readonly unchanged: boolean;
  /** After a pass that ran: stores the view it found consolidated, or forgets the stored one. */
  record(store: StateStore, cluster: string, outcome: PassResult['outcome']): Promise<void>;
}

export function consolidatedGate(
  state: PassState,
  snapshot: ClusterSnapshot,
  claimedByCommands: ReadonlySet<string>,
  options: PassOptions,
  now: Date,
): ConsolidatedGate {
  const fingerprint = consolidationFingerprint(snapshot, claimedByCommands, options);
  const stored = state.consolidated;
  const unchanged = isConsolidated(stored, fingerprint, now) && !anyDrifted(snapshot);
  return {
    unchanged,
    async record(store, cluster, outcome) {
      const next = nextConsolidatedView(stored, fingerprint, now, outcome);
      const same =
        next?.fingerprint === stored?.fingerprint && next?.since.getTime() === stored?.since.getTime();
      if (!same) await store.putConsolidatedView(cluster, next);
    },
  };
}

/** The result of a pass that did not run: no candidates judged, the walk memory left as stored. */
export function unchangedPass(metrics: Metrics, state: PassState): PassResult {
  metrics.count(KRAFTSMAN_METRICS.consolidatedSkipsTotal, 1);
  metrics.count(KRAFTSMAN_METRICS.passOutcomesTotal, 1, { [LABELS.outcome]: 'unchanged' });
  return {
    commands: [],
    method: undefined,
    skipped: [],
    expired: [],
    candidates: 0,
    evaluated: 0,
    timedOut: false,
    unseenPools: state.unseenPools.pools,
    timings: Object.fromEntries(STAGES.map((s) => [s, 0])) as PassResult['timings'],
    outcome: 'unchanged',
    memory: {},
    negativeTally: undefined,
    depth: undefined,
  };
}
