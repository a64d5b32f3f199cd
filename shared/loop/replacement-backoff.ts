// The replacement backoff across invocations (docs/mechanisms/replacement-backoff.md): orchestration records a
// hold for each candidate of a command whose replacement never launched or initialized, as the fork's queue
// does (replacementbackoff.go RecordFailure), and a pass reads the holds back before it walks, then deletes
// the ones it released because their candidate changed. The rules themselves are pure, in
// shared/disruption/replacement-backoff.ts; the state lives in the StateStore.
import {
  BackoffHolds,
  backoffFingerprint,
  recordFailure,
  type BackoffEntry,
} from '../disruption/replacement-backoff.ts';
import { isReschedulable } from '../disruption/pod-rules.ts';
import { NODEPOOL } from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import type { NodePool } from '../model/nodepool.ts';
import type { Clock } from '../ports/clock.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';

export interface BackoffDeps {
  readonly store: StateStore;
  readonly cluster: Pick<Cluster, 'listPodsOnNode'>;
  readonly clock: Clock;
  readonly metrics: Metrics;
}

/**
 * Holds every candidate of `cmd` off replaces: its fingerprint is taken from live state now (its pods are
 * still on it: a launching command evicted nothing), and a candidate that failed before with the same
 * fingerprint doubles its hold. Candidates whose Node or NodePool is gone are skipped: nothing to hold.
 */
export async function recordReplacementFailure(
  deps: BackoffDeps,
  cluster: string,
  baseMs: number,
  view: { readonly nodes: ReadonlyMap<string, Node>; readonly nodePools: ReadonlyMap<string, NodePool> },
  cmd: CommandRecord,
): Promise<void> {
  if (baseMs <= 0) return;
  const now = deps.clock.now();
  const previous = new Map((await deps.store.listReplacementBackoffs(cluster)).map((e) => [e.candidate, e]));
  const entries: BackoffEntry[] = [];
  for (const id of cmd.identities ?? []) {
    const node = view.nodes.get(id.node);
    const poolName = node?.metadata.labels?.[NODEPOOL];
    const pool = poolName === undefined ? undefined : view.nodePools.get(poolName);
    if (!node || !pool || poolName === undefined) continue;
    const pods = (await deps.cluster.listPodsOnNode(id.node)).filter(isReschedulable);
    const fingerprint = backoffFingerprint({
      providerId: node.spec?.providerID ?? id.providerId,
      nodePool: pool,
      pods,
    });
    const entry = recordFailure(
      previous.get(id.node),
      { candidate: id.node, nodePool: poolName, fingerprint },
      now,
      baseMs,
    );
    entries.push(entry);
    deps.metrics.count(LOOP_METRICS.replacementBackoffsTotal, 1, { nodepool: poolName });
    deps.metrics.observe(
      LOOP_METRICS.replacementBackoffSeconds,
      (entry.until.getTime() - now.getTime()) / 1000,
      { nodepool: poolName },
    );
  }
  if (entries.length > 0) await deps.store.putReplacementBackoffs(cluster, entries);
}

/** The holds a pass walks with, and the write that forgets the ones the pass found released. */
export async function loadReplacementHolds(
  store: StateStore,
  cluster: string,
  now: Date,
): Promise<{ readonly holds: BackoffHolds; settle(): Promise<void> }> {
  const entries = await store.listReplacementBackoffs(cluster);
  const holds = new BackoffHolds(new Map(entries.map((e) => [e.candidate, e])), now);
  return {
    holds,
    settle: async () => {
      const released = [...holds.released.values()].map((e) => ({
        candidate: e.candidate,
        fingerprint: e.fingerprint,
      }));
      if (released.length > 0) await store.deleteReplacementBackoffs(cluster, released);
    },
  };
}
