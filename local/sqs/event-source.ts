// Lambda's SQS event source mapping, as it polls: receive up to batchSize messages with all system
// attributes, invoke the function with the SQS event, then delete what succeeded. With
// ReportBatchItemFailures only the listed items stay (they reappear after the visibility timeout); a thrown
// error, or a response naming an id not in the batch, leaves the whole batch, as Lambda does.
import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';

export interface EventSourceMapping {
  readonly client: SQSClient;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly region: string;
  readonly batchSize: number;
  readonly reportBatchItemFailures: boolean;
}

export interface PollResult {
  readonly received: readonly string[];
  readonly deleted: readonly string[];
  /** The message ids left on the queue, and why. */
  readonly left: readonly string[];
  readonly error?: unknown;
}

type Handler = (event: unknown) => Promise<unknown>;

export const sqsRecord = (m: Message, arn: string, region: string) => ({
  messageId: m.MessageId,
  receiptHandle: m.ReceiptHandle,
  body: m.Body,
  attributes: m.Attributes ?? {},
  messageAttributes: {},
  md5OfBody: m.MD5OfBody,
  eventSource: 'aws:sqs',
  eventSourceARN: arn,
  awsRegion: region,
});

/** The ids the function asked to keep; undefined when the response is not a valid partial-batch answer. */
function failuresOf(response: unknown, ids: readonly string[]): string[] | undefined {
  const r = response as { batchItemFailures?: { itemIdentifier?: unknown }[] } | null | undefined;
  if (r === null || r === undefined || r.batchItemFailures === undefined) return [];
  if (!Array.isArray(r.batchItemFailures)) return undefined;
  const out: string[] = [];
  for (const f of r.batchItemFailures) {
    if (typeof f.itemIdentifier !== 'string' || !ids.includes(f.itemIdentifier)) return undefined;
    out.push(f.itemIdentifier);
  }
  return out;
}

export async function pollOnce(esm: EventSourceMapping, handler: Handler): Promise<PollResult> {
  const got = await esm.client.send(
    new ReceiveMessageCommand({
      QueueUrl: esm.queueUrl,
      MaxNumberOfMessages: esm.batchSize,
      WaitTimeSeconds: 0,
      MessageSystemAttributeNames: ['All'],
    }),
  );
  const messages = got.Messages ?? [];
  const ids = messages.map((m) => String(m.MessageId));
  if (messages.length === 0) return { received: [], deleted: [], left: [] };
  let keep: string[] | undefined;
  let error: unknown;
  try {
    const response = await handler({ Records: messages.map((m) => sqsRecord(m, esm.queueArn, esm.region)) });
    keep = esm.reportBatchItemFailures ? failuresOf(response, ids) : [];
  } catch (err: unknown) {
    error = err;
  }
  if (!keep) return { received: ids, deleted: [], left: ids, ...(error ? { error } : {}) };
  const done = messages.filter((m) => !keep.includes(String(m.MessageId)));
  if (done.length > 0) {
    const out = await esm.client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: esm.queueUrl,
        Entries: done.map((m, i) => ({ Id: `m${i}`, ReceiptHandle: String(m.ReceiptHandle) })),
      }),
    );
    if (out.Failed?.length) throw new Error(`DeleteMessageBatch failed: ${JSON.stringify(out.Failed)}`);
  }
  return { received: ids, deleted: done.map((m) => String(m.MessageId)), left: keep };
}
