// Drift: replace one drifted node per pass, oldest drift first and empty nodes before busy ones (fewer pods
// move twice). Eventual class: a claim with a terminationGracePeriod is not held back by pod-level blocks.
// A node of a running gang is replaced with all the gang's nodes in one command, or waits (docs/mechanisms/gangs.md).
import { BudgetLedger } from './budgets.ts';
import type { Method } from './method.ts';
import { toReplacement } from './replacement.ts';
import { simulateCandidates } from './simulate-candidates.ts';
import type { Candidate, Skip } from './types.ts';

/** Drift's pod-level rule: a pod block holds a node back unless its claim has a terminationGracePeriod. */
export const driftBlocked = (c: Candidate): boolean => c.podBlock !== undefined && !c.terminationGracePeriod;

export const drift: Method = {
  name: 'drift',
  reason: 'Drifted',
  filter(c) {
    if (!c.drift) return undefined;
    if (driftBlocked(c)) return c.podBlock;
    return true;
  },
  compute(ctx, candidates, budgets, hints) {
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
      // The gang's other nodes (drifted or not) leave with it; all must be disruptable and within the budgets,
      // which count every node of the command, or the node waits for the gang to end.
      const group = gangGroup(c, hints.peers);
      if (!group || !ledger.canHold(group.map((g) => g.nodePool))) {
        skipped.push({ node: c.name, reason: 'gang' });
        continue;
      }
      evaluated++;
      const sim = simulateCandidates(ctx, group);
      if (sim.unscheduled.size > 0) {
        skipped.push({ node: c.name, reason: 'unschedulable-pods' });
        continue;
      }
      const command = {
        method: 'drift' as const,
        reason: 'Drifted' as const,
        candidates: group,
        replacements: sim.replacements.map(toReplacement),
      };
      return { commands: [command], skipped, evaluated, timedOut: false };
    }
    return { commands: [], skipped, evaluated, timedOut: false };
  },
};

/** The drifted node first, then its gang companions; undefined when one is no candidate or is pod-blocked. */
function gangGroup(c: Candidate, peers: ReadonlyMap<string, Candidate> | undefined): Candidate[] | undefined {
  if (!c.gang) return [c];
  const group = [c];
  for (const name of c.gang.nodes) {
    if (name === c.name) continue;
    const peer = peers?.get(name);
    if (!peer || driftBlocked(peer)) return undefined;
    group.push(peer);
  }
  return group;
}
