// The fork's replacement-failure backoff (replacementbackoff.go; docs/mechanisms/replacement-backoff.md): after
// a command fails because a replacement never launched or never initialized — typically insufficient capacity —
// its candidates are not proposed for a replace again for base × 2^(n−1) (n consecutive failures), at most
// 16 × base. A hold is released early when the candidate stops being the same replacement problem: another
// instance under its name, its NodePool's generation, or the pods that would move and their requests. Deletes
// launch nothing, so a held candidate may still be deleted. Pure: orchestration records the entries through
// the StateStore and the pass reads them back (shared/loop/replacement-backoff.ts).
import type { Pod } from '../model/pod.ts';
import { fingerprintDigest } from './fingerprint.ts';
import type { Candidate } from './types.ts';

/** The doubling stops here: a candidate is never held for more than this many times the base. */
export const MAX_BACKOFF_MULTIPLE = 16;

/** One candidate's hold, as the StateStore keeps it (keyed by the candidate's node name). */
export interface BackoffEntry {
  readonly candidate: string;
  readonly nodePool: string;
  /** What the candidate looked like when its replacement failed (backoffFingerprint). */
  readonly fingerprint: string;
  /** Consecutive failed commands with this fingerprint. */
  readonly failures: number;
  readonly lastFailure: Date;
  /** When the hold ends. */
  readonly until: Date;
  /** Quiet for twice the longest hold, the entry is forgotten (and the doubling starts over). */
  readonly expiresAt: Date;
}

/** The hold after `failures` consecutive failures: base × 2^(failures−1), capped at 16 × base. */
export function backoffDurationMs(baseMs: number, failures: number): number {
  const multiple = 2 ** Math.min(Math.max(failures, 1) - 1, 30);
  return baseMs * Math.min(multiple, MAX_BACKOFF_MULTIPLE);
}

/** What makes two failures the same replacement problem. */
export interface BackoffSubject {
  readonly providerId: string | undefined;
  readonly nodePool: { readonly metadata: { readonly uid?: string; readonly generation?: number } };
  /** The pods that would move (reschedulable), in any order. */
  readonly pods: readonly Pod[];
}

/** Each container's and init container's requests, and the pod-level ones, in a stable order. */
function requestsKey(p: Pod): string {
  const parts: string[] = [];
  const add = (requests: Readonly<Record<string, string | number>> | undefined): void => {
    for (const k of Object.keys(requests ?? {}).sort()) parts.push(`${k}:${String(requests?.[k])}`);
    parts.push(';');
  };
  for (const c of [...(p.spec.initContainers ?? []), ...p.spec.containers]) add(c.resources?.requests);
  add(p.spec.resources?.requests);
  return parts.join('');
}

/** The fork's fingerprint: providerID, NodePool UID/generation, and each moving pod's UID with its requests. */
export function backoffFingerprint(s: BackoffSubject): string {
  const pods = s.pods.map((p) => `${p.metadata.uid ?? p.metadata.name}=${requestsKey(p)}`).sort();
  const pool = `${s.nodePool.metadata.uid ?? ''}/${s.nodePool.metadata.generation ?? 0}`;
  return `rb1:${fingerprintDigest([s.providerId ?? '', pool, pods.join(',')].join('|'))}`;
}

export const candidateBackoffFingerprint = (c: Candidate): string =>
  backoffFingerprint({
    providerId: c.node.node?.spec?.providerID ?? c.node.claim?.status?.providerID,
    nodePool: c.pool.pool,
    pods: c.reschedulable,
  });

/** The entry after one more failure: a different fingerprint (or none before) starts the count over. */
export function recordFailure(
  previous: BackoffEntry | undefined,
  failed: { readonly candidate: string; readonly nodePool: string; readonly fingerprint: string },
  now: Date,
  baseMs: number,
): BackoffEntry {
  const failures = previous && previous.fingerprint === failed.fingerprint ? previous.failures + 1 : 1;
  const t = now.getTime();
  return {
    ...failed,
    failures,
    lastFailure: now,
    until: new Date(t + backoffDurationMs(baseMs, failures)),
    expiresAt: new Date(t + 2 * MAX_BACKOFF_MULTIPLE * baseMs),
  };
}

/** The pass's view of the holds: which candidates may not be replaced now, and which holds it released. */
export interface ReplacementHolds {
  held(c: Candidate): boolean;
}

export class BackoffHolds implements ReplacementHolds {
  /** Entries whose candidate changed since the failure: released for good (the loop deletes them). */
  readonly released = new Map<string, BackoffEntry>();

  constructor(
    private readonly entries: ReadonlyMap<string, BackoffEntry>,
    private readonly now: Date,
  ) {}

  held(c: Candidate): boolean {
    const e = this.entries.get(c.name);
    if (!e || this.released.has(c.name)) return false;
    if (e.fingerprint !== candidateBackoffFingerprint(c)) {
      this.released.set(c.name, e);
      return false;
    }
    return this.now.getTime() < e.until.getTime();
  }
}
