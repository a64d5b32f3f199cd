// The consolidated state across invocations (docs/mechanisms/consolidated-state.md): the methods that found nothing
// to do on the view the pass reads, less than five minutes ago, are passed over without computing (Karpenter's
// IsConsolidated, one mark per method); a pass whose every method with candidates was passed over ends
// `unchanged`, having built the candidates and simulated nothing. After the pass the marks are written back, only
// when they changed. Each method passed over is counted.
import {
  consolidatedMethods,
  consolidationFingerprint,
  nextConsolidatedView,
} from '../disruption/consolidated-state.ts';
import { KRAFTSMAN_METRICS, LABELS } from '../disruption/metric-names.ts';
import type { PassResult } from '../disruption/pass.ts';
import type { MethodName, PassOptions } from '../disruption/types.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { PassState } from '../ports/state-store/records.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';

export interface ConsolidatedGate {
  /** The methods still consolidated on this view: the pass passes them over. */
  readonly consolidated: ReadonlySet<MethodName>;
  /** After the pass: counts the methods passed over and stores the marks, when they changed. */
  record(store: StateStore, metrics: Metrics, cluster: string, result: PassResult): Promise<void>;
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
  const consolidated = consolidatedMethods(stored, fingerprint, now);
  return {
    consolidated,
    async record(store, metrics, cluster, result) {
      for (const method of result.consolidatedMethods)
        if (consolidated.has(method))
          metrics.count(KRAFTSMAN_METRICS.consolidatedSkipsTotal, 1, { [LABELS.method]: method });
      const next = nextConsolidatedView(stored, fingerprint, now, result.consolidatedMethods);
      const same =
        next?.fingerprint === stored?.fingerprint &&
        next?.since.getTime() === stored?.since.getTime() &&
        (next?.methods ?? []).join() === (stored?.methods ?? []).join();
      if (!same) await store.putConsolidatedView(cluster, next);
    },
  };
}
