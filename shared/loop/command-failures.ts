// One command's failure stays that command's (docs/functions/orchestrate.md, "When a command fails"): the
// error is counted, logged and recorded on the command with a time before which it is not tried again
// (exponential backoff); after MAX_COMMAND_ATTEMPTS consecutive failures the command ends `failed`, its
// candidates untainted and told why, and its disruption budget released (it is no longer open).
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import { ConditionFailedError } from '../ports/state-store/errors.ts';
import type { CommandStatus } from '../ports/state-store/command-states.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';
import { untaint, type ActionDeps } from './command-actions.ts';
import { checkCandidate } from './command-identity.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';

/** Consecutive failed attempts after which a command is given up. */
export const MAX_COMMAND_ATTEMPTS = 5;
/** The first retry waits one schedule period; each further one twice as long (1, 2, 4, 8 minutes). */
export const COMMAND_RETRY_BASE_MS = 60_000;
export const FAILED_EVENT_REASON = 'DisruptionFailed';

export interface FailureDeps extends ActionDeps {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

export interface FailurePolicy {
  readonly maxAttempts?: number;
  readonly retryBaseMs?: number;
}

/** A command a pass could not advance: what went wrong, how often in a row, and whether it was given up. */
export interface CommandFailureReport {
  readonly id: string;
  readonly status: CommandStatus;
  readonly attempts: number;
  readonly error: string;
  readonly terminal: boolean;
}

/** The wait after the n-th consecutive failure: base × 2^(n−1). */
export const retryDelayMs = (failures: number, baseMs = COMMAND_RETRY_BASE_MS): number =>
  baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 10);

export const describeError = (error: unknown): string =>
  (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2048);

/** Records a failed attempt at `cmd` (now in `status`); gives it up once the attempts are spent. */
export async function commandFailed(
  deps: FailureDeps,
  policy: FailurePolicy,
  cmd: CommandRecord,
  status: CommandStatus,
  error: unknown,
): Promise<CommandFailureReport> {
  // The count is per status: a transition this pass made started a new step with no failures yet.
  const attempts = (status === cmd.status ? (cmd.failures ?? 0) : 0) + 1;
  const message = describeError(error);
  const terminal = attempts >= (policy.maxAttempts ?? MAX_COMMAND_ATTEMPTS);
  deps.metrics.count(LOOP_METRICS.commandFailuresTotal, 1, {
    method: cmd.method,
    status,
    terminal: `${terminal}`,
  });
  deps.logger.error('disruption command step failed', {
    command: cmd.id,
    status,
    attempts,
    terminal,
    error: message,
  });
  const report = { id: cmd.id, status, attempts, error: message, terminal };
  try {
    if (!terminal) {
      const retryAt = new Date(deps.clock.now().getTime() + retryDelayMs(attempts, policy.retryBaseMs));
      await deps.store.recordCommandFailure(cmd.cluster, cmd.id, status, { error: message, retryAt });
      return report;
    }
    await deps.store.transitionCommand(cmd.cluster, cmd.id, status, 'failed');
  } catch (e: unknown) {
    if (e instanceof ConditionFailedError) return report; // moved by someone else meanwhile: theirs now
    throw e;
  }
  deps.metrics.count(LOOP_METRICS.commandsExecutedTotal, 1, {
    decision: cmd.decision,
    method: cmd.method,
    result: 'failed',
  });
  await releaseCandidates(deps, cmd, `${message} (${attempts} attempts)`);
  return report;
}

/**
 * A failed command's candidates that are still the recorded Nodes are untainted — a partly drained one too:
 * its evicted pods already run elsewhere, and a taint no open command owns would be swept anyway — and get
 * a Warning event saying why. A failure here is logged and left to the stranded-taint sweep of the next pass.
 */
async function releaseCandidates(deps: FailureDeps, cmd: CommandRecord, why: string): Promise<void> {
  for (const name of cmd.candidates) {
    try {
      const check = await checkCandidate(deps.cluster, cmd, name);
      if (check.kind !== 'intact' && check.kind !== 'unrecorded') continue;
      await untaint(deps, name);
      await deps.cluster.recordEvent({
        involved: {
          kind: 'Node',
          name,
          ...(check.node?.metadata.uid ? { uid: check.node.metadata.uid } : {}),
        },
        type: 'Warning',
        reason: FAILED_EVENT_REASON,
        message: `disruption command ${cmd.id} (${cmd.method}) failed and was given up: ${why}`,
      });
    } catch (error: unknown) {
      deps.logger.warn('could not release a failed command’s candidate', {
        command: cmd.id,
        candidate: name,
        error: describeError(error),
      });
    }
  }
}
