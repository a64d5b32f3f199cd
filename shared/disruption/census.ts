// The census (docs/mechanisms/census.md): simulate every candidate on its own, act on none, and count
// what could be deleted or replaced right now by NodePool. Budgets are not applied: the census measures
// opportunity; the pass decides what may be taken.
import { buildCandidates } from './candidates.ts';
import { computeConsolidation } from './consolidation.ts';
import { drift } from './drift.ts';
import { emptiness } from './emptiness.ts';
import { consolidationFilter } from './method.ts';
import { passContext } from './pass-context.ts';
import { toReplacement } from './replacement.ts';
import { simulateCandidates } from './simulate-candidates.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { savingsOf, type MethodName, type PassOptions, type SkipReason, type Stopwatch } from './types.ts';

export type CensusDecision = 'delete' | 'replace' | 'none';

export interface CensusEntry {
  readonly node: string;
  readonly nodePool: string;
  readonly decision: CensusDecision;
  readonly method?: MethodName;
  readonly reason?: SkipReason;
  readonly savingsPerHour?: number;
}

export interface CensusResult {
  readonly nodePools: Readonly<Record<string, Record<CensusDecision, number>>>;
  readonly candidates: readonly CensusEntry[];
}

export function runCensus(
  snapshot: ClusterSnapshot,
  now: Date,
  options: PassOptions,
  stopwatch?: Stopwatch,
): CensusResult {
  const ctx = passContext(snapshot, now, options, stopwatch);
  const set = buildCandidates({ snapshot, pdbs: ctx.pdbs(), now });
  for (const e of set.expired) ctx.expired.add(e.node);
  const entries: CensusEntry[] = [];
  const poolOf = new Map(snapshot.nodes.map((n) => [n.name, n.nodePool ?? '']));
  for (const s of set.skipped) {
    if (s.reason === 'not-initialized') continue; // the census covers managed, initialized nodes
    entries.push({ node: s.node, nodePool: poolOf.get(s.node) ?? '', decision: 'none', reason: s.reason });
  }
  for (const c of set.candidates) {
    const base = { node: c.name, nodePool: c.nodePool };
    if (drift.filter(c) === true) {
      const sim = simulateCandidates(ctx, [c]);
      if (sim.unscheduled.size)
        entries.push({ ...base, decision: 'none', method: 'drift', reason: 'unschedulable-pods' });
      else {
        const replacements = sim.replacements.map(toReplacement);
        const cmd = { method: 'drift' as const, reason: 'Drifted' as const, candidates: [c], replacements };
        entries.push({
          ...base,
          decision: replacements.length ? 'replace' : 'delete',
          method: 'drift',
          savingsPerHour: savingsOf(cmd),
        });
      }
      continue;
    }
    const empty = emptiness.filter(c);
    if (empty === true) {
      entries.push({ ...base, decision: 'delete', method: 'emptiness', savingsPerHour: c.price });
      continue;
    }
    const verdict = consolidationFilter(c);
    if (verdict !== true) {
      entries.push({
        ...base,
        decision: 'none',
        reason: verdict ?? (typeof empty === 'string' ? empty : 'not-consolidatable'),
      });
      continue;
    }
    const outcome = computeConsolidation(ctx, 'single-node-consolidation', [c]);
    if (outcome.kind === 'no-op')
      entries.push({
        ...base,
        decision: 'none',
        method: 'single-node-consolidation',
        reason: outcome.reason,
      });
    else {
      const cmd = outcome.command;
      entries.push({
        ...base,
        decision: cmd.replacements.length ? 'replace' : 'delete',
        method: cmd.method,
        savingsPerHour: savingsOf(cmd),
      });
    }
  }
  entries.sort((a, b) => a.node.localeCompare(b.node));
  const nodePools: Record<string, Record<CensusDecision, number>> = {};
  for (const e of entries) {
    const counts = (nodePools[e.nodePool] ??= { delete: 0, replace: 0, none: 0 });
    counts[e.decision]++;
  }
  return { nodePools, candidates: entries };
}
