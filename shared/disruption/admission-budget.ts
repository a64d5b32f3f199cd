// The admission budget (docs/mechanisms/batched-admission.md, docs/mechanisms/candidate-budget.md):
// sequential admission runs on its own clock, a settling delay plus ~20 s per proposal, so a walk that timed
// out still admits what it found. Pure maths; the loop (shared/loop/admission.ts) spends it.
export const SETTLING_DELAY_MS = 15_000;
export const PER_PROPOSAL_MS = 20_000;
export const admissionBudgetMs = (proposals: number): number =>
  SETTLING_DELAY_MS + PER_PROPOSAL_MS * proposals;

/**
 * Whether proposal `index` (0-based) may start `elapsedMs` into an admission budget of `budgetMs`: the first
 * while the budget lasts, each later one only with a whole proposal's share (PER_PROPOSAL_MS) still left, so
 * a proposal never starts that the budget cannot see through (the fork's reserve).
 */
export const mayStartNext = (index: number, elapsedMs: number, budgetMs: number): boolean =>
  index === 0 ? elapsedMs <= budgetMs : budgetMs - elapsedMs >= PER_PROPOSAL_MS;
