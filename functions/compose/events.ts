// The Lambda event shapes the handlers accept, validated with zod: EventBridge scheduled events (the
// schedules), and SQS batches (the interruption queue). Async invoke payloads are each function's own.
import { z } from 'zod';

/** What EventBridge Scheduler / a schedule rule delivers: `id` is unique per firing (the lease's run id). */
export const scheduledEventSchema = z.looseObject({
  version: z.string(),
  id: z.string().min(1),
  'detail-type': z.literal('Scheduled Event'),
  source: z.string().min(1),
  account: z.string(),
  time: z.iso.datetime({ offset: true }),
  region: z.string(),
  resources: z.array(z.string()).default([]),
  detail: z.unknown().optional(),
});
export type ScheduledEvent = z.infer<typeof scheduledEventSchema>;

export const sqsRecordSchema = z.looseObject({
  messageId: z.string().min(1),
  receiptHandle: z.string(),
  body: z.string(),
  attributes: z.looseObject({ ApproximateReceiveCount: z.string().optional() }).optional(),
  eventSource: z.literal('aws:sqs'),
  eventSourceARN: z.string(),
  awsRegion: z.string(),
});
export const sqsEventSchema = z.object({ Records: z.array(sqsRecordSchema).min(1) });
export type SqsRecord = z.infer<typeof sqsRecordSchema>;
export type SqsEvent = z.infer<typeof sqsEventSchema>;

/** The partial-batch response: only the listed messages return to the queue (ReportBatchItemFailures). */
export interface SqsBatchResponse {
  readonly batchItemFailures: readonly { readonly itemIdentifier: string }[];
}

export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
}

/** Parses an event and names the first bad field, e.g. `provision event: detail-type: Invalid input`. */
export function parseEvent<S extends z.ZodType>(schema: S, event: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(event);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues.map((i) => `${i.path.join('.') || '<root>'}: ${i.message}`).join('; ');
  throw new InvalidEventError(`${what}: ${where}`, { cause: parsed.error });
}
