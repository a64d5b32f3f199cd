// Single-node consolidation: walk the candidates one at a time (pools interleaved, pools a timed-out walk never
// reached first) within three minutes. Karpenter stops at its first command; kraftsman may hold up to
// maxCommands proposals, spending each pool's budget as it holds them, and later simulations see the held
// candidates gone (seed, "More than one command per pass").
import { BudgetLedger } from './budgets.ts';
import { computeConsolidation } from './consolidation.ts';
import { consolidationFilter, sortCandidates, type Method } from './method.ts';
import type { Candidate, Command, Skip } from './types.ts';

/** Sorted per pool, then interleaved: position i of every pool before position i + 1 of any. */
export function interleave(sorted: readonly Candidate[], unseenFirst: readonly string[]): Candidate[] {
  const byPool = new Map<string, Candidate[]>();
  for (const c of sorted) byPool.set(c.nodePool, [...(byPool.get(c.nodePool) ?? []), c]);
  const pools = [...unseenFirst.filter((p) => byPool.has(p)), ...[...byPool.keys()].filter((p) => !unseenFirst.includes(p)).sort()];
  const out: Candidate[] = [];
  const longest = Math.max(0, ...[...byPool.values()].map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const p of pools) {
    const c = byPool.get(p)?.[i];
    if (c) out.push(c);
  }
  return out;
}

export const singleNode: Method = {
  name: 'single-node-consolidation',
  reason: 'Underutilized',
  filter: consolidationFilter,
  compute(ctx, candidates, budgets, hints) {
    const ordered = interleave(sortCandidates(candidates), hints.unseenPools ?? []);
    const unseen = new Set(ordered.map((c) => c.nodePool));
    let ledger = BudgetLedger.from(budgets);
    const held: Command[] = [];
    const heldCandidates: Candidate[] = [];
    const skipped: Skip[] = [];
    const start = ctx.stopwatch.elapsedMs();
    let evaluated = 0;
    let timedOut = false;
    for (const [i, c] of ordered.entries()) {
      if (held.length >= ctx.options.maxCommands) break;
      if (ctx.stopwatch.elapsedMs() - start > ctx.options.singleNodeTimeoutMs) {
        timedOut = true;
        for (const rest of ordered.slice(i)) skipped.push({ node: rest.name, reason: 'timed-out' });
        break;
      }
      unseen.delete(c.nodePool);
      if (heldCandidates.includes(c)) {
        skipped.push({ node: c.name, reason: 'claimed-by-pending-command' });
        continue;
      }
      if (!ledger.canHold([c.nodePool])) {
        skipped.push({ node: c.name, reason: 'budget-exhausted' });
        continue;
      }
      evaluated++;
      const outcome = computeConsolidation(ctx, 'single-node-consolidation', [c], heldCandidates);
      if (outcome.kind === 'no-op') {
        skipped.push({ node: c.name, reason: outcome.reason });
        continue;
      }
      ledger = ledger.hold([c.nodePool]);
      held.push(outcome.command);
      heldCandidates.push(c);
    }
    return { commands: held, skipped, evaluated, timedOut, unseenPools: [...unseen] };
  },
};
