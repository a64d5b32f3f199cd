// The census (docs/mechanisms/census.md): simulate every candidate on its own, act on none, and count what
// could be deleted or replaced right now by NodePool, within a time budget (five minutes by default).
// Disruption budgets are not applied: the census measures opportunity; the pass decides what may be taken.
import { buildCandidates } from './candidates.ts';
import { computeConsolidation } from './consolidation.ts';
import { drift } from './drift.ts';
import { emptiness } from './emptiness.ts';
import { gangIndex } from './gangs.ts';
import { consolidationFilter } from './method.ts';
import { KRAFTSMAN_METRICS, LABELS } from './metric-names.ts';
import { passContext, ZERO_STOPWATCH, type PassContext } from './pass-context.ts';
import { toReplacement } from './replacement.ts';
import { simulateCandidates } from './simulate-candidates.ts';
import type { CensusSpeculation } from './speculation.ts';
import { markForDeletion } from '../state/mark-for-deletion.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import {
  savingsOf,
  type Candidate,
  type Decision,
  type MethodName,
  type PassOptions,
  type SkipReason,
  type Stopwatch,
} from './types.ts';

/** A command's decision, or none when no method would disrupt the node. */
export type CensusDecision = Decision | 'none';

/** The census's own budget: five minutes of simulation nothing else is spending (docs/mechanisms/census.md). */
export const CENSUS_TIMEOUT_MS = 5 * 60_000;

export interface CensusEntry {
  readonly node: string;
  readonly nodePool: string;
  readonly decision: CensusDecision;
  readonly method?: MethodName;
  readonly reason?: SkipReason;
  readonly savingsPerHour?: number;
}

/**
 * Per NodePool, by decision (docs/contract.md, `kraftsman census`): delete, replace and none add up to the listed
 * candidates, whatever method decided them. empty and drifted count, among those, the nodes emptiness and drift
 * would take (a method's share, not a fourth decision); unreached counts candidates the budget cut off.
 */
export interface CensusCounts {
  readonly delete: number;
  readonly replace: number;
  readonly none: number;
  readonly empty: number;
  readonly drifted: number;
  readonly unreached: number;
}

/** The candidates a pool's counts cover: every decision plus the unreached (empty and drifted are shares). */
export const censusCandidates = (c: CensusCounts): number => c.delete + c.replace + c.none + c.unreached;

export interface CensusResult {
  readonly nodePools: Readonly<Record<string, CensusCounts>>;
  readonly candidates: readonly CensusEntry[];
  /** True when the budget ran out before every candidate was judged. */
  readonly truncated: boolean;
  /** Candidates judged before the budget ran out (the unreached are not listed). */
  readonly reached: number;
}

/** How far a census reaches: its time budget, and the nodes open commands already claim. */
export interface CensusScope {
  /** The sweep's budget (default CENSUS_TIMEOUT_MS); candidates past it are counted unreached. */
  readonly timeoutMs?: number;
  /** Nodes named by open commands: leaving, as in the pass (docs/mechanisms/census.md). */
  readonly claimedByCommands?: ReadonlySet<string>;
  /** Entries worked out ahead by other threads (docs/mechanisms/parallel-discovery.md). */
  readonly speculation?: CensusSpeculation;
}

/** The census's context and candidates: a discovery worker builds the same ones from the same inputs. */
export function censusSetup(
  snapshot: ClusterSnapshot,
  now: Date,
  options: PassOptions,
  stopwatch: Stopwatch = ZERO_STOPWATCH,
  claimedByCommands?: ReadonlySet<string>,
) {
  snapshot = markForDeletion(snapshot, claimedByCommands);
  const ctx = passContext(snapshot, now, options, stopwatch);
  const set = buildCandidates({
    snapshot,
    pdbs: ctx.pdbs(),
    now,
    claimedByCommands,
    gangs: gangIndex(snapshot),
  });
  for (const e of set.expired) ctx.expired.add(e.node);
  return { snapshot, ctx, set };
}

export function runCensus(
  snapshot: ClusterSnapshot,
  now: Date,
  options: PassOptions,
  stopwatch: Stopwatch = ZERO_STOPWATCH,
  scope: CensusScope = {},
): CensusResult {
  const { claimedByCommands, timeoutMs = CENSUS_TIMEOUT_MS, speculation } = scope;
  const setup = censusSetup(snapshot, now, options, stopwatch, claimedByCommands);
  const { ctx, set } = setup;
  snapshot = setup.snapshot;
  const entries = skippedEntries(setup);
  const start = stopwatch.elapsedMs();
  const unreached = new Map<string, number>();
  let reached = 0;
  // Every candidate is judged alone, so every one may be worked out ahead.
  speculation?.begin(set.candidates, () => true);
  for (const c of set.candidates) {
    if (stopwatch.elapsedMs() - start > timeoutMs) {
      unreached.set(c.nodePool, (unreached.get(c.nodePool) ?? 0) + 1);
      continue;
    }
    reached++;
    stopwatch.work?.('candidate', 1);
    const ahead = speculation?.outcome(c, []);
    entries.push(ahead?.node === c.name ? ahead : judgeCandidate(ctx, c));
  }
  entries.sort((a, b) => a.node.localeCompare(b.node));
  return {
    nodePools: countByPool(entries, unreached),
    candidates: entries,
    truncated: unreached.size > 0,
    reached,
  };
}

/** The census entries of the nodes that are no candidates (counted `none` with the reason they were skipped). */
export function skippedEntries({ snapshot, set }: Pick<ReturnType<typeof censusSetup>, 'snapshot' | 'set'>) {
  const entries: CensusEntry[] = [];
  const poolOf = new Map(snapshot.nodes.map((n) => [n.name, n.nodePool ?? '']));
  for (const s of set.skipped) {
    if (s.reason === 'not-initialized') continue; // the census covers managed, initialized nodes
    entries.push({ node: s.node, nodePool: poolOf.get(s.node) ?? '', decision: 'none', reason: s.reason });
  }
  return entries;
}

/** One candidate's census entry: what drift, emptiness or single-node consolidation would do with it alone. */
export function judgeCandidate(ctx: PassContext, c: Candidate): CensusEntry {
  {
    const base = { node: c.name, nodePool: c.nodePool };
    // A node of a running gang never leaves alone (docs/mechanisms/gangs.md): the census judges nodes one by one.
    if (drift.filter(c) === true && c.gang)
      return { ...base, decision: 'none', method: 'drift', reason: 'gang' };
    if (drift.filter(c) === true) {
      const sim = simulateCandidates(ctx, [c]);
      if (sim.unscheduled.size)
        return { ...base, decision: 'none', method: 'drift', reason: 'unschedulable-pods' };
      const replacements = sim.replacements.map(toReplacement);
      const cmd = { method: 'drift' as const, reason: 'Drifted' as const, candidates: [c], replacements };
      return {
        ...base,
        decision: replacements.length ? 'replace' : 'delete',
        method: 'drift',
        savingsPerHour: savingsOf(cmd),
      };
    }
    const empty = emptiness.filter(c);
    if (empty === true) return { ...base, decision: 'delete', method: 'emptiness', savingsPerHour: c.price };
    const verdict = consolidationFilter(c);
    if (verdict !== true)
      return {
        ...base,
        decision: 'none',
        reason: verdict ?? (typeof empty === 'string' ? empty : 'not-consolidatable'),
      };
    if (c.gang) return { ...base, decision: 'none', method: 'single-node-consolidation', reason: 'gang' };
    const outcome = computeConsolidation(ctx, 'single-node-consolidation', [c]);
    if (outcome.kind === 'no-op')
      return { ...base, decision: 'none', method: 'single-node-consolidation', reason: outcome.reason };
    const cmd = outcome.command;
    return {
      ...base,
      decision: cmd.replacements.length ? 'replace' : 'delete',
      method: cmd.method,
      savingsPerHour: savingsOf(cmd),
    };
  }
}

export function countByPool(
  entries: readonly CensusEntry[],
  unreached: ReadonlyMap<string, number>,
): Record<string, CensusCounts> {
  const out: Record<string, { -readonly [K in keyof CensusCounts]: number }> = {};
  const of = (pool: string) =>
    (out[pool] ??= { delete: 0, replace: 0, none: 0, empty: 0, drifted: 0, unreached: 0 });
  for (const e of entries) {
    const counts = of(e.nodePool);
    counts[e.decision]++;
    if (e.method === 'drift' && e.decision !== 'none') counts.drifted++;
    else if (e.method === 'emptiness') counts.empty++;
  }
  for (const [pool, n] of unreached) of(pool).unreached += n;
  return out;
}

export interface CensusMetric {
  readonly name: string;
  readonly value: number;
  readonly labels: Readonly<Record<string, string>>;
}

/** The census gauges (names in metric-names.ts), so whoever emits them shows truncation like the counts. */
export function censusMetrics(r: CensusResult): CensusMetric[] {
  const out: CensusMetric[] = [
    { name: KRAFTSMAN_METRICS.censusTruncated, value: r.truncated ? 1 : 0, labels: {} },
  ];
  for (const [pool, counts] of Object.entries(r.nodePools)) {
    for (const [decision, value] of Object.entries(counts))
      out.push({
        name: KRAFTSMAN_METRICS.censusNodes,
        value,
        labels: { [LABELS.nodePool]: pool, [LABELS.decision]: decision },
      });
  }
  return out;
}
