// Coverage cycle (docs/mechanisms/coverage-cycle.md): candidates evaluated this cycle go behind the unreached
// ones, so a timed-out walk resumes mid-list; a position hint only, never a verdict. Plus Karpenter's order.
// Pure. API: upstreamOrder, unseenPoolsAfterWalk, reconcileCoverage, resumeCoverageCycle, markEvaluated,
// restartCoverageCycle, coverageFraction, coverageDelta.

/** Anything the walk orders: a name and the NodePool it belongs to. */
export interface CoverageCandidate {
  readonly name: string;
  readonly nodePool: string;
}

/** One NodePool's cycle, the shape the StateStore port persists (CoverageCycle in shared/ports/state-store/records.ts). */
export interface CoverageCycle {
  readonly nodePool: string;
  readonly cycle: number;
  readonly evaluated: ReadonlySet<string>;
}
export type CoverageState = ReadonlyMap<string, CoverageCycle>;

export const EMPTY_COVERAGE: CoverageState = new Map();

// ── upstream order ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * SingleNodeConsolidation.SortCandidates (Karpenter v1.14.1 singlenodeconsolidation.go): the consolidation sort,
 * then interleaved by NodePool — position i of every pool before position i + 1 of any — with the pools a
 * timed-out walk never reached (PreviouslyUnseenNodePools) first. Go iterates map keys in random order; we put
 * unseen pools in the order given and the rest by name, so the order is reproducible.
 */
export function upstreamOrder<C extends CoverageCandidate>(
  sorted: readonly C[],
  unseenPools: readonly string[] = [],
): C[] {
  const byPool = new Map<string, C[]>();
  for (const c of sorted) {
    const list = byPool.get(c.nodePool);
    if (list) list.push(c);
    else byPool.set(c.nodePool, [c]);
  }
  const first = [...new Set(unseenPools)].filter((p) => byPool.has(p));
  const pools = [...first, ...[...byPool.keys()].filter((p) => !first.includes(p)).sort()];
  const longest = Math.max(0, ...[...byPool.values()].map((l) => l.length));
  const out: C[] = [];
  for (let i = 0; i < longest; i++) {
    for (const p of pools) {
      const c = byPool.get(p)?.[i];
      if (c) out.push(c);
    }
  }
  return out;
}

/**
 * The pools of `ordered` the walk never reached when it stopped after `reached` candidates. Karpenter stores
 * this only when the walk times out or runs to the end (a walk that returns a command keeps the old set).
 */
export function unseenPoolsAfterWalk(ordered: readonly CoverageCandidate[], reached: number): string[] {
  const seen = new Set(ordered.slice(0, Math.max(0, reached)).map((c) => c.nodePool));
  return [...new Set(ordered.map((c) => c.nodePool))].filter((p) => !seen.has(p));
}

// ── the coverage cycle ──────────────────────────────────────────────────────────────────────────────────────

/**
 * The store has no cycle for a pool until one is started (startCoverageCycle(pool, 0) creates cycle 1), and it
 * only loads members of a started cycle; so a pool entering the state begins at cycle 1, and the delta starts it.
 */
export const FIRST_CYCLE = 1;
const NOT_STORED = 0;
const cycleOf = (state: CoverageState, pool: string): CoverageCycle =>
  state.get(pool) ?? { nodePool: pool, cycle: FIRST_CYCLE, evaluated: new Set() };

const isEvaluated = (state: CoverageState, c: CoverageCandidate): boolean =>
  state.get(c.nodePool)?.evaluated.has(c.name) === true;

/**
 * The state as of this pass's candidates: names that are no longer candidates are dropped (a node that
 * disappeared cannot hold the cycle open), pools without candidates are dropped, and if every current
 * candidate was already evaluated, a new cycle starts. Call once per pass, before `resumeCoverageCycle`.
 */
export function reconcileCoverage(
  state: CoverageState,
  current: readonly CoverageCandidate[],
): CoverageState {
  const names = new Map<string, Set<string>>();
  for (const c of current) {
    const set = names.get(c.nodePool);
    if (set) set.add(c.name);
    else names.set(c.nodePool, new Set([c.name]));
  }
  const out = new Map<string, CoverageCycle>();
  for (const [pool, live] of names) {
    const prev = cycleOf(state, pool);
    out.set(pool, {
      nodePool: pool,
      cycle: prev.cycle,
      evaluated: new Set([...prev.evaluated].filter((n) => live.has(n))),
    });
  }
  return allCovered(out, current) ? nextCycle(out) : out;
}

/**
 * `ordered` (Karpenter's order) with the candidates evaluated this cycle moved behind the unreached ones;
 * both groups keep their relative order (a stable partition), so the walk resumes where the last one stopped.
 */
export function resumeCoverageCycle<C extends CoverageCandidate>(
  ordered: readonly C[],
  state: CoverageState,
): C[] {
  const unreached: C[] = [];
  const reached: C[] = [];
  for (const c of ordered) (isEvaluated(state, c) ? reached : unreached).push(c);
  return [...unreached, ...reached];
}

/**
 * Records the candidates the walk reached, in the order it reached them. The cycle is one cycle across every
 * pool of the walk: the moment every current candidate has been evaluated, every pool starts a new cycle and
 * later evaluations of this pass count towards it. (Per-pool resets would let a small pool's candidates
 * jump ahead of a big pool's tail again every pass, breaking the ⌈walk / budget⌉ + 1 bound.)
 */
export function markEvaluated(
  state: CoverageState,
  reached: readonly CoverageCandidate[],
  current: readonly CoverageCandidate[],
): CoverageState {
  const unique = new Map(current.map((c) => [key(c), c]));
  const live = new Set(unique.keys());
  // Private working copies (the caller's state is never touched); `open` counts current candidates not yet evaluated.
  const work = new Map(
    [...state].map(([pool, c]) => [pool, { cycle: c.cycle, evaluated: new Set(c.evaluated) }]),
  );
  let open = [...unique.values()].filter((c) => !isEvaluated(state, c)).length;
  for (const c of reached) {
    if (!live.has(key(c))) continue;
    let entry = work.get(c.nodePool);
    if (!entry) work.set(c.nodePool, (entry = { cycle: FIRST_CYCLE, evaluated: new Set() }));
    if (entry.evaluated.has(c.name)) continue;
    entry.evaluated.add(c.name);
    if (--open > 0) continue;
    for (const e of work.values()) {
      e.cycle += 1;
      e.evaluated = new Set();
    }
    open = live.size;
  }
  return new Map(
    [...work].map(([pool, e]) => [pool, { nodePool: pool, cycle: e.cycle, evaluated: e.evaluated }]),
  );
}

/**
 * A walk that ended for any reason but a timeout (it ran to the end, or held its proposals) starts the next walk
 * at the head, as upstream does: every pool that recorded members begins a new cycle; untouched pools stay.
 */
export function restartCoverageCycle(state: CoverageState): CoverageState {
  return new Map(
    [...state].map(([pool, c]) => [
      pool,
      c.evaluated.size === 0 ? c : { nodePool: pool, cycle: c.cycle + 1, evaluated: new Set<string>() },
    ]),
  );
}

/** The walk-cycle coverage gauge: the fraction of current candidates evaluated this cycle (1 with none). */
export function coverageFraction(
  state: CoverageState,
  current: readonly CoverageCandidate[],
  nodePool?: string,
): number {
  const scope = nodePool === undefined ? current : current.filter((c) => c.nodePool === nodePool);
  if (scope.length === 0) return 1;
  return scope.filter((c) => isEvaluated(state, c)).length / scope.length;
}

/** What to persist through the StateStore: per pool, start a new cycle (expecting the old number) and/or add names. */
export interface CoverageWrite {
  readonly nodePool: string;
  /** When the pool's cycle advanced: call startCoverageCycle(nodePool, expected) with each of these, in order. */
  readonly startCycles: readonly number[];
  readonly cycle: number;
  /** Names to record under `cycle` (markEvaluated); may be empty after a start. */
  readonly evaluated: readonly string[];
}

/** `before` must be PassState.coverage exactly as loaded (a pool missing from it was never started in the store). */
export function coverageDelta(before: CoverageState, after: CoverageState): CoverageWrite[] {
  const writes: CoverageWrite[] = [];
  for (const [pool, next] of [...after].sort(([a], [b]) => a.localeCompare(b))) {
    const prev = before.get(pool) ?? { nodePool: pool, cycle: NOT_STORED, evaluated: new Set<string>() };
    if (!before.has(pool) && next.cycle === FIRST_CYCLE && next.evaluated.size === 0) continue; // nothing to record yet
    if (next.cycle !== prev.cycle) {
      const startCycles = Array.from(
        { length: Math.max(0, next.cycle - prev.cycle) },
        (_, i) => prev.cycle + i,
      );
      writes.push({ nodePool: pool, startCycles, cycle: next.cycle, evaluated: [...next.evaluated].sort() });
      continue;
    }
    const added = [...next.evaluated].filter((n) => !prev.evaluated.has(n)).sort();
    if (added.length > 0)
      writes.push({ nodePool: pool, startCycles: [], cycle: next.cycle, evaluated: added });
  }
  return writes;
}

function allCovered(state: CoverageState, current: readonly CoverageCandidate[]): boolean {
  return current.length > 0 && current.every((c) => isEvaluated(state, c));
}

function nextCycle(state: CoverageState): Map<string, CoverageCycle> {
  return new Map(
    [...state].map(([pool, c]) => [
      pool,
      { nodePool: pool, cycle: c.cycle + 1, evaluated: new Set<string>() },
    ]),
  );
}

const key = (c: CoverageCandidate): string => `${c.nodePool}\u0000${c.name}`;
