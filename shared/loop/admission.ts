// Sequential admission of the proposals a walk held (docs/mechanisms/batched-admission.md): each proposal is
// validated against live state read right before it starts, so it sees the effects of every command admitted
// before it; a proposal that relied on capacity an earlier one consumed fails validation. Runs on its own
// budget (disruption/admission-budget.ts), so a timed-out walk still admits what it found. The validation and
// the budget are pure core; this loop is the part with side effects.
import { admissionBudgetMs, mayStartNext } from '../disruption/admission-budget.ts';
import type { PassInputs } from '../disruption/pass.ts';
import type { Command, Stopwatch } from '../disruption/types.ts';
import { validateCommand, type Validation } from '../disruption/validation.ts';

export interface AdmissionSteps {
  /** Live state now (after every admitted command's taints, launches and deletion marks). */
  readLive(): Promise<PassInputs>;
  /** StartCommand: the only side effect; resolves once its effects are visible to readLive. */
  start(cmd: Command): Promise<void>;
  readonly stopwatch: Stopwatch;
}

export interface AdmissionResult {
  readonly admitted: readonly Command[];
  readonly rejected: readonly { readonly command: Command; readonly validation: Validation }[];
  /** Proposals not tried because the admission budget ran out. */
  readonly expired: readonly Command[];
}

export async function admitSequentially(
  proposals: readonly Command[],
  steps: AdmissionSteps,
): Promise<AdmissionResult> {
  const start = steps.stopwatch.elapsedMs();
  const budget = admissionBudgetMs(proposals.length);
  const admitted: Command[] = [];
  const rejected: { command: Command; validation: Validation }[] = [];
  for (const [i, cmd] of proposals.entries()) {
    if (!mayStartNext(i, steps.stopwatch.elapsedMs() - start, budget))
      return { admitted, rejected, expired: proposals.slice(i) };
    const validation = validateCommand(await steps.readLive(), cmd);
    if (!validation.valid) {
      rejected.push({ command: cmd, validation });
      continue;
    }
    await steps.start(cmd);
    admitted.push(cmd);
  }
  return { admitted, rejected, expired: [] };
}
