// Emptiness: delete every empty, Consolidatable node the Empty budget allows, in one command, without a
// simulation (nothing has to move). Runs for WhenEmpty and WhenEmptyOrUnderutilized alike.
import { BudgetLedger } from './budgets.ts';
import { consolidationDisabled, sortCandidates, type Method } from './method.ts';
import { isEmpty, type Candidate, type Skip } from './types.ts';

export const emptiness: Method = {
  name: 'emptiness',
  reason: 'Empty',
  filter(c) {
    // A node whose gang members cost nothing to evict (negative priority or deletion cost) still hosts a running
    // gang: it is not emptiness's, which would take it alone (docs/mechanisms/gangs.md, "Disruption").
    if (!isEmpty(c) || c.gang) return undefined;
    if (c.podBlock) return c.podBlock;
    if (consolidationDisabled(c)) return 'consolidation-disabled';
    return c.consolidatable ? true : 'consolidate-after';
  },
  compute(_ctx, candidates, budgets) {
    let ledger = BudgetLedger.from(budgets);
    const empty: Candidate[] = [];
    const skipped: Skip[] = [];
    for (const c of sortCandidates(candidates)) {
      const next = ledger.tryHold([c.nodePool]);
      if (!next) {
        skipped.push({ node: c.name, reason: 'budget-exhausted' });
        continue;
      }
      ledger = next;
      empty.push(c);
    }
    const commands = empty.length
      ? [{ method: 'emptiness' as const, reason: 'Empty' as const, candidates: empty, replacements: [] }]
      : [];
    return { commands, skipped, evaluated: candidates.length, timedOut: false };
  },
};
