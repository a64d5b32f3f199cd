// Drift: replace one drifted node per pass, oldest drift first and empty nodes before busy ones (fewer pods
// move twice). Eventual class: a claim with a terminationGracePeriod is not held back by pod-level blocks.
import { BudgetLedger } from './budgets.ts';
import type { Method } from './method.ts';
import { toReplacement } from './replacement.ts';
import { simulateCandidates } from './simulate-candidates.ts';
import type { Skip } from './types.ts';

export const drift: Method = {
  name: 'drift',
  reason: 'Drifted',
  filter(c) {
    if (!c.drift) return undefined;
    if (c.podBlock && !c.terminationGracePeriod) return c.podBlock;
    return true;
  },
  compute(ctx, candidates, budgets) {
    const ledger = BudgetLedger.from(budgets);
    const bySince = [...candidates].sort(
      (a, b) => (a.drift?.since ?? 0) - (b.drift?.since ?? 0) || a.name.localeCompare(b.name),
    );
    const ordered = [
      ...bySince.filter((c) => c.reschedulable.length === 0),
      ...bySince.filter((c) => c.reschedulable.length > 0),
    ];
    const skipped: Skip[] = [];
    let evaluated = 0;
    for (const c of ordered) {
      if (!ledger.canHold([c.nodePool])) {
        skipped.push({ node: c.name, reason: 'budget-exhausted' });
        continue;
      }
      evaluated++;
      const sim = simulateCandidates(ctx, [c]);
      if (sim.unscheduled.size > 0) {
        skipped.push({ node: c.name, reason: 'unschedulable-pods' });
        continue;
      }
      const command = {
        method: 'drift' as const,
        reason: 'Drifted' as const,
        candidates: [c],
        replacements: sim.replacements.map(toReplacement),
      };
      return { commands: [command], skipped, evaluated, timedOut: false };
    }
    return { commands: [], skipped, evaluated, timedOut: false };
  },
};
