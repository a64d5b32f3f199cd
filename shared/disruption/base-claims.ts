// The base solution's claims over queue time (docs/mechanisms/delta-simulation.md, point 5): each claim's state
// after every first-pass placement, and the scheduler's claim-order events, so the follow can hold the full
// simulation's claims as they stood at a delta pod's queue place.
import type { ClaimState, NewClaim } from '../scheduling/new-claim.ts';
import type { SchedulingInput, SchedulingResult } from '../scheduling/scheduler.ts';

export interface OrderEvent {
  readonly kind: 'dirty' | 'resorted';
  readonly at: number;
  /** Its place among the run's claim placements (`ClaimAt.seq`): placements with a lower seq came before it. */
  readonly seq: number;
}

/** One of the base's claims at a queue place: the claim (as it ended) and its state then. */
export interface ClaimAt {
  readonly claim: NewClaim;
  readonly state: ClaimState;
  /** When the placement that gave it this state happened: its queue place, then its order among the run's placements. */
  readonly at: number;
  readonly seq: number;
  /** When it was opened, likewise (the load order's tie-break after a re-sort). */
  readonly opened: readonly [number, number];
}

type Observers = Required<Pick<SchedulingInput, 'onClaimed' | 'onPop' | 'onClaimOrder'>>;

/** Watches a run's claim placements and claim-order events; `history` reads them by queue place once it ended. */
export function watchClaims(): {
  observers: Observers;
  history(
    result: SchedulingResult,
    decided: (key: string) => number,
  ): {
    claimsAt(t: number): readonly ClaimAt[];
    orderEvents(from: number, t: number): readonly OrderEvent[];
  };
} {
  const claimed: Claimed[] = [];
  // the pod being tried, and whether it is a retry (after every first attempt)
  let current = '';
  let retry = false;
  const popped = new Set<string>();
  const order: { kind: OrderEvent['kind']; key: string; retry: boolean; seq: number }[] = [];
  const orderEvent = (kind: OrderEvent['kind']) =>
    order.push({ kind, key: current, retry, seq: claimed.length });
  return {
    observers: {
      onClaimed: (pod, claim) => claimed.push({ key: pod.key, claim, state: claim.state() }),
      onPop: (pod) => {
        current = pod.key;
        retry = popped.has(pod.key);
        popped.add(pod.key);
      },
      onClaimOrder: { dirty: () => orderEvent('dirty'), resorted: () => orderEvent('resorted') },
    },
    history(result, decided) {
      const kept = claimHistory(claimed, result, decided);
      const events: OrderEvent[] = order
        .filter((e) => !e.retry)
        .map((e) => ({ kind: e.kind, at: decided(e.key), seq: e.seq }));
      return {
        claimsAt: (t) => claimsAt(result.claims, kept, t),
        orderEvents: (from, t) => events.filter((e) => e.at >= from && e.at < t),
      };
    },
  };
}

interface Claimed {
  readonly key: string;
  readonly claim: NewClaim;
  readonly state: ClaimState;
}

/**
 * Each claim's states after its first-pass placements, by queue place: a placement a gang's rollback undid, or a
 * retry's (after every first attempt), is left out — the claim's pods are pushed and popped in that order, so
 * each kept state holds the first `pods` of the claim's final pods.
 */
function claimHistory(
  claimed: readonly Claimed[],
  result: SchedulingResult,
  decided: (key: string) => number,
): Map<NewClaim, Kept[]> {
  const last = new Map<string, number>();
  claimed.forEach((e, i) => last.set(e.key, i));
  const kept = new Map<NewClaim, Kept[]>();
  claimed.forEach((e, i) => {
    if (result.requeued.has(e.key)) return; // a retry: after every first attempt
    const p = result.placements.get(e.key);
    const at = decided(e.key);
    if (last.get(e.key) !== i || p?.kind !== 'new' || p.claim !== e.claim) return;
    const list = kept.get(e.claim) ?? [];
    list.push({ at, seq: i, state: e.state });
    kept.set(e.claim, list);
  });
  return kept;
}

interface Kept {
  readonly at: number;
  readonly seq: number;
  readonly state: ClaimState;
}

function claimsAt(
  claims: readonly NewClaim[],
  history: ReadonlyMap<NewClaim, readonly Kept[]>,
  t: number,
): ClaimAt[] {
  const out: ClaimAt[] = [];
  for (const claim of claims) {
    const list = history.get(claim) ?? [];
    let h: Kept | undefined;
    for (const k of list) if (k.at < t) h = k;
    const first = list[0] as Kept;
    if (h) out.push({ claim, state: h.state, at: h.at, seq: h.seq, opened: [first.at, first.seq] });
  }
  return out;
}
