// lifecycle: a scheduled event runs one lifecycle pass under its lease; an SQS batch from the interruption
// queue is handled message by message and answered with the partial-batch failures (ReportBatchItemFailures).
import { handleInterruptionQueue } from '../../shared/loop/interruption-queue.ts';
import { lifecycle, type LifecycleResult } from '../../shared/loop/lifecycle.ts';
import { leaseOwner } from '../../shared/loop/with-lease.ts';
import {
  invocation,
  parseContext,
  parseEvent,
  scheduledEventSchema,
  sqsEventSchema,
  type SqsBatchResponse,
} from '../compose/index.ts';
import { lifecycleDeps, type LifecycleHandlerDeps } from './deps.ts';
import { queueMessage } from './messages.ts';

const isSqsBatch = (event: unknown): boolean =>
  typeof event === 'object' && event !== null && 'Records' in event;

export function createLifecycleHandler(deps: () => Promise<LifecycleHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<LifecycleResult | SqsBatchResponse> => {
    const ctx = parseContext(context);
    if (isSqsBatch(event)) {
      const batch = parseEvent(sqsEventSchema, event, 'lifecycle SQS batch');
      const d = await deps();
      const out = await invocation(d.obs, { requestId: ctx.awsRequestId }, () =>
        handleInterruptionQueue(d.loop, batch.Records.map(queueMessage), d.settings.lifecycle.drainTimeoutMs),
      );
      return { batchItemFailures: out.failed.map((id) => ({ itemIdentifier: id })) };
    }
    const scheduled = parseEvent(scheduledEventSchema, event, 'lifecycle event');
    const d = await deps();
    return invocation(d.obs, { requestId: ctx.awsRequestId, passId: scheduled.id }, () =>
      lifecycle(d.loop, {
        cluster: d.settings.clusterName,
        owner: leaseOwner(ctx.awsRequestId, d.loop.nonce()),
        runId: scheduled.id,
        leaseTtlMs: d.settings.leaseTtlMs,
        settings: d.settings.lifecycle,
      }),
    );
  };
}

export const handler = createLifecycleHandler(lifecycleDeps);
