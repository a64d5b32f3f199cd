// The sync gate as a pass runs it (docs/mechanisms/sync-gate.md): judge the unlaunched NodeClaims of the snapshot
// under the configured policy, with the open commands' replacements always waited on; count every check that
// found a claim unlaunched, by its class and whether the pass waited; and hand the pass the snapshot without the
// unlaunched claims it runs past. A pass that waits decides nothing and writes nothing back.
import { STAGES, type Stage } from '../disruption/pass-context.ts';
import type { PassResult } from '../disruption/pass.ts';
import {
  judgeSync,
  unlaunchedClaims,
  withoutUnlaunched,
  type SyncPolicy,
  type SyncVerdict,
} from '../disruption/sync-gate.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';

/**
 * counter {reason, outcome}: sync checks that found an unlaunched NodeClaim, by the highest-ranked class present
 * (UNLAUNCHED_CLASSES) and `waited` | `proceeded` — the fork's name, so a looser policy's effect is measurable
 * before it is turned on.
 */
export const SYNC_CHECKS_METRIC = 'karpenter_voluntary_disruption_unlaunched_nodeclaim_sync_checks_total';

export interface SyncCheck {
  readonly verdict: SyncVerdict;
  /** The snapshot the pass runs on (without the unlaunched claims it runs past). */
  readonly snapshot: ClusterSnapshot;
}

export function checkSync(
  metrics: Metrics,
  snapshot: ClusterSnapshot,
  openCommands: readonly CommandRecord[],
  policy: SyncPolicy,
): SyncCheck {
  const replacements = new Set(openCommands.flatMap((c) => c.replacements));
  const verdict = judgeSync(policy, unlaunchedClaims(snapshot), replacements);
  if (verdict.reason !== undefined)
    metrics.count(SYNC_CHECKS_METRIC, 1, {
      reason: verdict.reason,
      outcome: verdict.proceed ? 'proceeded' : 'waited',
    });
  return { verdict, snapshot: verdict.proceed ? withoutUnlaunched(snapshot, verdict) : snapshot };
}

/** What a pass that waited for sync returns: no commands, nothing learned, outcome `unsynced`. */
export function unsyncedPass(unseenPools: readonly string[]): PassResult {
  const timings = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  return {
    commands: [],
    method: undefined,
    skipped: [],
    expired: [],
    candidates: 0,
    evaluated: 0,
    timedOut: false,
    unseenPools,
    timings,
    outcome: 'unsynced',
    memory: {},
    negativeTally: undefined,
    depth: undefined,
    // A pass that waited decided nothing, so it marks no method consolidated.
    consolidatedMethods: [],
  };
}
