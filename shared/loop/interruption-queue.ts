// The interruption queue (EventBridge → SQS, aws-node-termination-handler's queue mode): every message carries
// one EventBridge event, already translated into signals by the handler. A message that did not parse, or
// whose claim could not be handled (its drain failed, say), is a batch item failure: SQS redelivers it and,
// after its retries, moves it to the dead-letter queue; a redelivery drains again. Nothing is dropped silently.
import type { InterruptionSignal } from '../ports/cloud-provider/index.ts';
import { handleInterruptions } from './interruption.ts';
import { interruptionPorts } from './interruption-ports.ts';
import type { TerminationDeps } from './termination.ts';

export type QueueMessage =
  | { readonly id: string; readonly signals: readonly InterruptionSignal[] }
  | { readonly id: string; readonly error: string };

export interface QueueOutcome {
  readonly messages: number;
  readonly drained: number;
  readonly noted: number;
  readonly unmatched: number;
  /** Message ids to hand back to SQS. */
  readonly failed: readonly string[];
}

export async function handleInterruptionQueue(
  deps: TerminationDeps,
  messages: readonly QueueMessage[],
  drainTimeoutMs: number,
): Promise<QueueOutcome> {
  const failed: string[] = [];
  let drained = 0;
  let noted = 0;
  let unmatched = 0;
  for (const m of messages) {
    if ('error' in m) {
      failed.push(m.id);
      deps.logger.error('interruption message rejected', { messageId: m.id, error: m.error });
      continue;
    }
    // One read per message: an earlier message's termination is visible to the next.
    const read = await deps.cluster.readSnapshot();
    // A message handed back after its drain failed is retried for the drain (interruption.ts, drainLeaving).
    const outcome = await handleInterruptions(m.signals, interruptionPorts(deps, read, drainTimeoutMs, true));
    drained += outcome.drained;
    noted += outcome.noted;
    unmatched += outcome.unmatched;
    if (outcome.failed > 0) {
      failed.push(m.id);
      deps.logger.error('interruption message failed', { messageId: m.id, errors: outcome.errors });
    }
  }
  return { messages: messages.length, drained, noted, unmatched, failed };
}
