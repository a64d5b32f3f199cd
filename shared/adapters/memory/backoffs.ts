// Replacement-backoff holds in the in-memory store (docs/mechanisms/replacement-backoff.md), as the DynamoDB
// adapter keeps them: one per candidate; a release removes a hold only while its fingerprint is the one released.
import type { BackoffEntry } from '../../disruption/replacement-backoff.ts';
import { backoffInputs, type BackoffRelease } from '../../ports/state-store/replacement-backoffs.ts';
import { isLive, type ClusterState } from './cluster-state.ts';

export function liveBackoffs(s: ClusterState, now: Date): BackoffEntry[] {
  return [...s.backoffs.values()]
    .filter((e) => isLive(e.expiresAt, now))
    .sort((a, b) => a.candidate.localeCompare(b.candidate));
}

export function putBackoffs(s: ClusterState, entries: readonly BackoffEntry[]): void {
  for (const e of backoffInputs.put(entries)) s.backoffs.set(e.candidate, e);
}

export function releaseBackoffs(s: ClusterState, releases: readonly BackoffRelease[]): void {
  for (const r of backoffInputs.release(releases))
    if (s.backoffs.get(r.candidate)?.fingerprint === r.fingerprint) s.backoffs.delete(r.candidate);
}
