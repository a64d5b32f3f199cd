// The follow's claims (docs/mechanisms/delta-simulation.md, point 5): where the full simulation puts a delta pod no
// existing node takes — the base's claims as they stood at its queue place, then a new claim — and the rule that
// keeps the rest of the run the base's: a claim the delta touched must turn away every pod that may try it later.
import { NODES, ONE_NODE, type ResourceList } from '../model/resources.ts';
import { openClaimFor, templatesByWeight, type ClaimOpening } from '../scheduling/claim-opener.ts';
import type { Journal } from '../scheduling/journal.ts';
import { mightFit, NewClaim } from '../scheduling/new-claim.ts';
import { PodState, type PendingPod } from '../scheduling/pod-state.ts';
import type { Requirements } from '../scheduling/requirement-set.ts';
import { untolerated } from '../scheduling/taints.ts';
import type { NodeClaimTemplate } from '../scheduling/template.ts';
import type { Topology } from '../scheduling/topology.ts';
import type { BaseSolution } from './base-solution.ts';

/** Why the follow could not place a delta pod on the claims exactly. */
export type ClaimFallback = 'needs-claim' | 'gang-claim' | 'claim-order' | 'claim-shared' | 'limits';

interface Touched {
  /** The full simulation's copy of the claim (a base claim at the delta's first touch, or one the delta opened). */
  readonly claim: NewClaim;
  /** When it last took a pod, and when it was opened (see `Reach`). */
  reach: Reach;
  readonly opened: Reach;
  /** The queue place of the delta's first touch: base pods decided from here on that the base put there went elsewhere. */
  readonly since: number;
}

/**
 * When a claim took the pod that gave it its present count: the queue place, then the order of placements within
 * it (a delta pod at queue place t goes before the base's pod there: a negative second term, in its own order).
 */
type Reach = readonly [number, number];
const cmpReach = (a: Reach, b: Reach) => a[0] - b[0] || a[1] - b[1];

/**
 * The scheduler's claim order (load-order.ts, Karpenter's stable sort by pod count): fewest pods first; a claim
 * opened joins after those with one pod, and one that gains a pod moves past those with fewer, so before the claims
 * that reached its new count earlier; an undo (a gang's rollback) has it re-sorted by pods, then opening. So among
 * equal counts: one pod, opened first goes first; more, those that reached the count since the last re-sort go
 * first, the latest first, then the others, opened first goes first. `since`: whether a claim's count came after
 * the last re-sort (none pending: the re-sort happens at this very pod).
 */
const loadOrder = (since: (c: OpenClaim) => boolean) => (a: OpenClaim, b: OpenClaim) => {
  if (a.state.pods !== b.state.pods) return a.state.pods - b.state.pods;
  if (a.state.pods === 1) return cmpReach(a.opened, b.opened);
  const x = since(a);
  if (x !== since(b)) return x ? -1 : 1;
  return x ? cmpReach(b.reach, a.reach) : cmpReach(a.opened, b.opened);
};

const byWeight = new WeakMap<BaseSolution, NodeClaimTemplate[][]>();

export class DeltaClaims {
  /** Base claims the delta joined, by the base's claim, and the claims it opened. */
  private readonly joined = new Map<NewClaim, Touched>();
  private readonly opened: Touched[] = [];
  /** The claim each delta pod the follow put on a claim went to. */
  readonly placed = new Map<string, NewClaim>();
  /** Delta placements on claims so far: their order within a queue place (see `Reach`). */
  private placements = 0;
  /** The queue place of the delta's first claim placement. */
  private first: number | undefined;
  /** Per limited NodePool, what the claims the delta opened take from its limits (Karpenter's subtractMax). */
  private readonly used = new Map<string, Record<string, number>>();

  constructor(
    private readonly base: BaseSolution,
    private readonly live: Topology,
    private readonly journal: Journal,
    /** Delta pods: followed one by one, so no seal needs to turn them away. */
    private readonly moved: ReadonlySet<string>,
  ) {}

  /**
   * The follow must go on to this queue place (exclusive): a pod decided before it may still join a claim the
   * delta touched, so the full simulation's claims are known only by following it (see `seal`).
   */
  horizon = 0;

  /** Whether the delta touched a claim at all. */
  get any(): boolean {
    return this.opened.length > 0 || this.joined.size > 0;
  }

  /** A backlog pod the base put on a claim the delta has since filled: the full simulation put it elsewhere. */
  displaced(key: string, at: number): boolean {
    const c = this.base.claimOf(key);
    const t = c && this.joined.get(c);
    return t !== undefined && at >= t.since;
  }

  /**
   * Places a delta pod (no existing node took it) as the scheduler's `add` goes on: the claims open at its queue
   * place, fewest pods first, then a new claim. Exact only where the order of claims with equal pods cannot
   * decide (`claim-order`), where the claim it lands on turns away every pod that may try it later whatever else
   * the run does (`claim-shared`: a resource no remaining type has room for, or a taint it does not tolerate,
   * both only grow), and where no NodePool limit binds (`limits`).
   */
  place(d: PodState, t: number): ClaimFallback | undefined {
    const taker = this.choose(d, t);
    if (typeof taker === 'string') return taker;
    return taker ? this.touch(taker, d, t) : this.openFor(d, t);
  }

  /**
   * A backlog pod the full simulation sends to the claims while a claim the delta touched may take it (`mayTake`):
   * where it lands, as `place` finds it. On a touched claim it joins it (`rejoined` when that is the delta's copy of
   * its own base claim, else `touched`); on its own untouched base claim nothing changes (`base`); anywhere else —
   * another claim, a new one — the claims differ from the base's (`other`).
   */
  placeBacklog(d: PodState, t: number): ClaimFallback | 'touched' | 'rejoined' | 'base' | 'other' {
    const mark = this.journal.begin();
    const taker = this.choose(d, t);
    if (typeof taker === 'string') return taker;
    if (taker?.mine) {
      const why = this.touch(taker, d, t);
      // the delta's copy of the claim the base put it on (the base's claim object keys the copy)
      return why ?? (taker.claim === this.joinedCopy(d.key) ? 'rejoined' : 'touched');
    }
    // an untouched claim's copy took it on trial: undo it (claim and topology counts)
    this.journal.rollback(mark);
    return taker && taker.claim === this.base.claimOf(d.key) ? 'base' : 'other';
  }

  /** The delta's copy of the base claim the base put the pod on, if the delta joined that claim. */
  private joinedCopy(key: string): NewClaim | undefined {
    const c = this.base.claimOf(key);
    return c && this.joined.get(c)?.claim;
  }

  /** Whether a claim the delta touched may take the pod (in any form relaxing gives it). */
  mayTake(p: PodState): boolean {
    for (const c of this.touched()) if (mightFit(c, p.info.requests) && !refusesForGood(c, p)) return true;
    return false;
  }

  /**
   * The claim open at queue place `t` that takes the pod, in the scheduler's order (the pod added to it), none, or
   * why that is not known: where the order of claims with equal pods is not known, at most one may take it.
   */
  private choose(d: PodState, t: number): OpenClaim | undefined | ClaimFallback {
    const excluded = this.live.excludedHostnames(d);
    const open = this.openAt(t).filter(
      (c) => !excluded?.has(c.claim.hostname) && mightFit(c.state, d.info.requests),
    );
    const since = this.sinceResort(t);
    // where the order is not known, claims with as many pods are not ordered: at most one may take the pod
    const ordered = since !== undefined;
    open.sort(loadOrder(since ?? (() => true)));
    for (let i = 0; i < open.length;) {
      const pods = (open[i] as OpenClaim).state.pods;
      let taker: OpenClaim | undefined;
      for (; i < open.length && (open[i] as OpenClaim).state.pods === pods; i++) {
        const c = open[i] as OpenClaim;
        // a refused add changes nothing; in order, the first that takes it is where it goes
        if (ordered) {
          if (this.copyOf(c).add(d, this.live, this.journal) === undefined) return c;
        } else if (this.accepts(this.copyOf(c), d)) {
          if (taker) return 'claim-order';
          taker = c;
        }
      }
      if (taker) {
        this.copyOf(taker).add(d, this.live, this.journal);
        return taker;
      }
    }
    return undefined;
  }

  /**
   * Which claims reached their count since the scheduler last re-sorted, before queue place `t`; undefined where
   * that is not known: a re-sort or an undo between the delta's first claim placement and `t` (the full simulation
   * may have re-sorted at the delta's own pod instead of where the base did).
   */
  private sinceResort(t: number): ((c: OpenClaim) => boolean) | undefined {
    if (this.first !== undefined && this.base.orderEvents(this.first, t).length > 0) return undefined;
    const events = this.base.orderEvents(0, t);
    const last = events.at(-1);
    // an undo still pending: the full simulation re-sorts at the delta's first pod that tries the claims (this
    // one, or an earlier one whose claims are the delta's own since)
    if (last?.kind === 'dirty') return (c) => c.mine;
    const r = last?.seq ?? -1;
    return (c) => c.mine || c.reach[1] >= r;
  }

  private openAt(t: number): OpenClaim[] {
    const out: OpenClaim[] = [];
    for (const at of this.base.claimsAt(t)) {
      const mine = this.joined.get(at.claim);
      out.push(
        mine
          ? {
              claim: mine.claim,
              state: mine.claim.state(),
              reach: mine.reach,
              opened: mine.opened,
              mine: true,
            }
          : { ...at, reach: [at.at, at.seq], mine: false },
      );
    }
    for (const o of this.opened)
      out.push({ claim: o.claim, state: o.claim.state(), reach: o.reach, opened: o.opened, mine: true });
    return out;
  }

  /** The full simulation's claim for an open one: a base claim copied as it stood, else the delta's own. */
  private copyOf(c: OpenClaim): NewClaim {
    if (c.copy === undefined && !c.mine) c.copy = NewClaim.at(c.claim, c.state);
    return c.copy ?? c.claim;
  }

  /** Whether the claim takes the pod now; the trial is rolled back (claim, topology counts and all). */
  private accepts(c: NewClaim, d: PodState): boolean {
    const mark = this.journal.begin();
    const err = c.add(d, this.live, this.journal);
    this.journal.rollback(mark);
    return err === undefined;
  }

  private touch(was: OpenClaim, d: PodState, t: number): ClaimFallback | undefined {
    const c = this.copyOf(was);
    this.placed.set(d.key, c);
    const reach = this.reach(t);
    const mine =
      this.opened.find((o) => o.claim === c) ?? [...this.joined.values()].find((j) => j.claim === c);
    if (mine) mine.reach = reach;
    else this.joined.set(was.claim, { claim: c, since: t, reach, opened: was.opened });
    return this.seal(c, t, d.key);
  }

  // A new claim, by the scheduler's own opener. Only where no NodePool limit binds: with every limited pool's
  // least remaining in the base (less what the delta's claims take) above each of its types and a node to spare,
  // the limits filter no type and refuse no claim in the full simulation either (as `sameLimits` argues).
  private openFor(d: PodState, t: number): ClaimFallback | undefined {
    if (!this.limitsFree()) return 'limits';
    let n = this.opened.length;
    const opening: ClaimOpening = {
      templatesByWeight: weightOrder(this.base),
      cheapestPoolAmongEqualWeights: this.base.options.cheapestPoolAmongEqualWeights,
      allowUndefined: this.base.options.allowUndefined,
      topology: this.live,
      journal: this.journal,
      remainingOf: () => undefined,
      gangCloud: () => undefined,
      // a hostname no base claim has: its domain differs from the base's, which the count differences record
      nextHostname: () => `hostname-placeholder-delta-${String(++n).padStart(4, '0')}`,
      releaseHostname: () => void n--,
    };
    const claim = openClaimFor(opening, d);
    // no NodePool takes it: the full simulation retries it after every first attempt, which is not followed
    if (typeof claim === 'string') return 'needs-claim';
    const reach = this.reach(t);
    this.opened.push({ claim, since: t, reach, opened: reach });
    this.placed.set(d.key, claim);
    const pool = claim.template.nodePool;
    if (this.base.input.remaining.has(pool)) {
      const used = this.used.get(pool) ?? {};
      used[NODES] = (used[NODES] ?? 0) + ONE_NODE;
      const max: Record<string, number> = {};
      for (const it of claim.instanceTypes)
        for (const k in it.capacity) max[k] = Math.max(max[k] ?? 0, it.capacity[k] as number);
      for (const k in max) used[k] = (used[k] ?? 0) + (max[k] as number);
      this.used.set(pool, used);
      if (!this.limitsFree()) return 'limits';
    }
    return this.seal(claim, t, d.key);
  }

  private reach(t: number): Reach {
    this.first ??= t;
    return [t, ++this.placements - Number.MAX_SAFE_INTEGER];
  }

  private limitsFree(): boolean {
    for (const t of this.base.input.templates) {
      const least = this.base.remainingAfter.get(t.nodePool);
      if (least && !admitsAll(least, this.used.get(t.nodePool) ?? {}, t)) return false;
    }
    return true;
  }

  /**
   * Every pod that may try the claim after queue place `t` is turned away for good (see `place`), or is decided
   * no later than the horizon, so the follow goes on to it and places it as the full simulation does (the claim
   * can only harden: a pod it turns away now it turns away later). A retried pod comes after every first attempt,
   * and a gang's member takes its gang's all-or-nothing path: neither is followed (`claim-shared`).
   */
  private seal(c: NewClaim, t: number, self: string): ClaimFallback | undefined {
    for (const p of this.base.triedAfter(t)) {
      const key = p.state.key;
      if (key === self || this.moved.has(key)) continue;
      if (!mightFit(c, p.state.info.requests) || refusesForGood(c, p.state)) continue;
      if (p.retried || p.state.info.gang) return 'claim-shared';
      this.horizon = Math.max(this.horizon, p.at + 1);
    }
    return undefined;
  }

  /** Every claim the delta touched, as the full simulation holds it. */
  private *touched(): Iterable<NewClaim> {
    for (const j of this.joined.values()) yield j.claim;
    for (const o of this.opened) yield o.claim;
  }
}

interface OpenClaim {
  readonly claim: NewClaim;
  readonly state: ReturnType<NewClaim['state']>;
  readonly reach: Reach;
  readonly opened: Reach;
  /** The delta's own (a base claim it joined, or one it opened): the full simulation's copy already. */
  readonly mine: boolean;
  copy?: NewClaim | undefined;
}

/**
 * The claim refuses the pod in every form relaxing can give it: a NoSchedule or NoExecute taint of its NodePool the
 * pod does not tolerate (relaxing adds only a PreferNoSchedule toleration), or a conflict with every one of the
 * pod's required node-affinity terms (relaxing tries them one at a time and drops only preferences, which narrow
 * further). A conflict is on a key both define with no value in common: the claim's requirements only narrow as it
 * fills, so it stays; a key the claim does not define is not judged (a later placement may define it).
 */
function refusesForGood(c: NewClaim, p: PodState): boolean {
  const hard = c.template.taints.filter((x) => x.effect !== 'PreferNoSchedule');
  if (untolerated(hard, p.tolerations) !== undefined) return true;
  return termsOf(p.info).every((term) => c.requirements.conflict(term) !== undefined);
}

const terms = new WeakMap<PendingPod, readonly Requirements[]>();
/** The pod's unrelaxed required terms (node selector and volume requirements in each): a base state may be relaxed. */
function termsOf(info: PendingPod): readonly Requirements[] {
  let t = terms.get(info);
  if (!t) terms.set(info, (t = new PodState(info, false).strictTerms));
  return t;
}

function admitsAll(least: ResourceList, used: ResourceList, t: NodeClaimTemplate): boolean {
  const left = (k: string) => (least[k] as number) - (used[k] ?? 0);
  if (least[NODES] !== undefined && left(NODES) < ONE_NODE) return false;
  for (const it of t.instanceTypes)
    for (const k in least) if (k !== NODES && (it.capacity[k] ?? 0) > left(k)) return false;
  return true;
}

function weightOrder(base: BaseSolution): NodeClaimTemplate[][] {
  let w = byWeight.get(base);
  if (!w) byWeight.set(base, (w = templatesByWeight(base.input.templates)));
  return w;
}
