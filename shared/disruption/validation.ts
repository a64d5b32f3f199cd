// Validation right before a command starts (Karpenter's validation.go), against live state: the candidates must
// still be candidates the method accepts, within budget, not nominated; a consolidation must still simulate to
// the same decision with its replacement's types a subset of what the fresh simulation allows. Pass caches are
// rebuilt for it, so a re-simulation after the settling delay sees the cluster after the wait
// (docs/mechanisms/pass-reads.md).
import { BudgetLedger, budgetMapping } from './budgets.ts';
import { buildCandidates } from './candidates.ts';
import { driftBlocked } from './drift.ts';
import { gangIndex } from './gangs.ts';
import type { Method } from './method.ts';
import { METHODS } from './methods.ts';
import { passContext } from './pass-context.ts';
import type { PassInputs } from './pass.ts';
import { destinationGuard } from './destination-guard.ts';
import { simulateCandidates } from './simulate-candidates.ts';
import { markForDeletion } from '../state/mark-for-deletion.ts';
import type { Candidate, Command } from './types.ts';

export type ValidationFailure = 'churn' | 'budget' | 'scheduling' | 'gang';
export type Validation =
  | { readonly valid: true }
  | { readonly valid: false; readonly failure: ValidationFailure; readonly detail: string };

const fail = (failure: ValidationFailure, detail: string): Validation => ({ valid: false, failure, detail });

/** What validation needs of a command: its method, its candidates by name and its replacements. */
export type ProposalShape = Pick<Command, 'method' | 'replacements'> & {
  readonly candidates: readonly { readonly name: string }[];
};

export function validateCommand(live: PassInputs, cmd: ProposalShape): Validation {
  const method = METHODS.find((m) => m.name === cmd.method);
  if (!method) return fail('churn', `unknown method ${cmd.method}`);
  // Open commands' nodes are leaving (their pods move, they use budget), exactly as in the pass.
  const snapshot = markForDeletion(live.snapshot, live.claimedByCommands);
  const ctx = passContext(snapshot, live.now, live.options, live.stopwatch, live.verdicts);
  const gangs = gangIndex(snapshot);
  const set = buildCandidates({
    snapshot,
    pdbs: ctx.pdbs(),
    now: live.now,
    claimedByCommands: live.claimedByCommands,
    nominated: live.nominated,
    booked: live.booked,
    gangs,
  });
  for (const e of set.expired) ctx.expired.add(e.node);
  // A command that would now take some of a running gang's nodes and leave others (a member bound since the
  // proposal, a gang that reached its minimum) is refused before anything else (docs/mechanisms/gangs.md).
  const split = gangs.split(cmd.candidates.map((c) => c.name));
  if (split)
    return fail('gang', `gang ${split.gang} would be split: its nodes ${split.left.join(', ')} stay`);
  const byName = new Map(set.candidates.map((c) => [c.name, c]));
  // Karpenter: any candidate filtered out since the proposal invalidates the whole command.
  const fresh: Candidate[] = [];
  for (const { name } of cmd.candidates) {
    const c = byName.get(name);
    if (c === undefined || !accepts(method, c)) return fail('churn', 'a candidate is no longer a candidate');
    fresh.push(c);
  }
  // A drift command's gang companions need not have drifted, but the command must still hold a drifted node.
  if (cmd.method === 'drift' && !fresh.some((c) => method.filter(c) === true))
    return fail('churn', 'no candidate has drifted any more');
  const pools = [...snapshot.nodePools.values()].map((v) => v.pool);
  // Expired nodes consume budget here as in the pass, or validation would admit what the pass could not hold.
  const ledger = BudgetLedger.from(
    budgetMapping(pools, snapshot.nodes, method.reason, live.now, { disrupting: ctx.expired }),
  );
  if (!ledger.canHold(fresh.map((c) => c.nodePool)))
    return fail('budget', 'a candidate can no longer be disrupted without violating budgets');
  // Emptiness's filter above accepts only empty candidates: nothing to move, no simulation to repeat.
  if (cmd.method === 'emptiness') return { valid: true };
  if (cmd.method === 'drift') return { valid: true }; // Karpenter validates drift only through the queue
  const sim = simulateCandidates(ctx, fresh, [], undefined, destinationGuard(ctx));
  // Karpenter: "all pending pods could not be scheduled"; the first pod left over is named with its reason.
  const [unplaced] = sim.unscheduled;
  if (unplaced) return fail('scheduling', `pod ${unplaced[0]}: ${unplaced[1]}`);
  // Replacement is m → 1: none expected and none needed, or one of the instance types the fresh simulation allows.
  const [needed, ...more] = sim.replacements;
  const [planned] = cmd.replacements;
  const changed = fail('scheduling', 'scheduling simulation produced new results');
  if (needed === undefined) return planned === undefined ? { valid: true } : changed;
  if (more.length > 0 || planned === undefined) return changed;
  const allowed = new Set(needed.instanceTypes.map((t) => t.name));
  return planned.instanceTypes.every((t) => allowed.has(t)) ? { valid: true } : changed;
}

/** The method's filter, or for drift a gang companion that is not drifted itself but leaves with the gang. */
function accepts(method: Method, c: Candidate): boolean {
  if (method.filter(c) === true) return true;
  return method.name === 'drift' && c.gang !== undefined && !driftBlocked(c);
}
