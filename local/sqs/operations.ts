// The SQS operations the emulator implements, over its queues: each input is checked against SQS's own
// shape (unknown fields refused) and answered with SQS's output shape or a modelled SqsError.
import { z } from 'zod';
import { SqsError, noQueue } from './errors.ts';
import { EmuQueue, parseAttributes, type EmuMessage } from './queue.ts';

export const ACCOUNT = '123456789012';
const entryId = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/);

export const INPUTS = {
  CreateQueue: z.strictObject({
    QueueName: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
    Attributes: z.record(z.string(), z.string()).optional(),
  }),
  GetQueueUrl: z.strictObject({ QueueName: z.string().min(1) }),
  GetQueueAttributes: z.strictObject({
    QueueUrl: z.string(),
    AttributeNames: z.array(z.string()).optional(),
  }),
  SendMessage: z.strictObject({ QueueUrl: z.string(), MessageBody: z.string().min(1).max(262_144) }),
  ReceiveMessage: z.strictObject({
    QueueUrl: z.string(),
    MaxNumberOfMessages: z.number().int().min(1).max(10).optional(),
    VisibilityTimeout: z.number().int().min(0).max(43_200).optional(),
    // Accepted, never waited on: an empty queue answers at once (time is the test's clock, not the wall's).
    WaitTimeSeconds: z.number().int().min(0).max(20).optional(),
    MessageSystemAttributeNames: z.array(z.string()).optional(),
  }),
  DeleteMessage: z.strictObject({ QueueUrl: z.string(), ReceiptHandle: z.string().min(1) }),
  DeleteMessageBatch: z.strictObject({
    QueueUrl: z.string(),
    Entries: z.array(z.strictObject({ Id: entryId, ReceiptHandle: z.string() })),
  }),
} as const;
export type Operation = keyof typeof INPUTS;
type Input<K extends Operation> = z.output<(typeof INPUTS)[K]>;

const batchError = (type: string, message: string) =>
  new SqsError(type, `AWS.SimpleQueueService.${type}`, message);

export class SqsService {
  readonly queues = new Map<string, EmuQueue>();
  constructor(
    private readonly base: () => string,
    readonly region: string,
    private readonly now: () => number,
  ) {}

  byUrl(url: string): EmuQueue {
    const q = [...this.queues.values()].find((x) => x.url === url);
    if (!q) throw noQueue(url);
    return q;
  }

  byArn = (arn: string): EmuQueue => {
    const q = [...this.queues.values()].find((x) => x.arn === arn);
    if (!q) throw noQueue(arn);
    return q;
  };

  CreateQueue({ QueueName, Attributes = {} }: Input<'CreateQueue'>) {
    const attributes = parseAttributes(Attributes);
    if (attributes.redrive) this.byArn(attributes.redrive.deadLetterTargetArn);
    const existing = this.queues.get(QueueName);
    if (existing && JSON.stringify(existing.raw) !== JSON.stringify(Attributes))
      throw new SqsError(
        'QueueNameExists',
        'QueueAlreadyExists',
        `${QueueName} exists with other attributes.`,
      );
    if (existing) return { QueueUrl: existing.url };
    const url = `${this.base()}/${ACCOUNT}/${QueueName}`;
    const arn = `arn:aws:sqs:${this.region}:${ACCOUNT}:${QueueName}`;
    this.queues.set(QueueName, new EmuQueue(QueueName, url, arn, attributes, Attributes));
    return { QueueUrl: url };
  }

  GetQueueUrl({ QueueName }: Input<'GetQueueUrl'>) {
    const q = this.queues.get(QueueName);
    if (!q) throw noQueue(QueueName);
    return { QueueUrl: q.url };
  }

  GetQueueAttributes({ QueueUrl }: Input<'GetQueueAttributes'>) {
    const q = this.byUrl(QueueUrl);
    const { visible, inFlight } = q.counts(this.now());
    const counts = {
      ApproximateNumberOfMessages: String(visible),
      ApproximateNumberOfMessagesNotVisible: String(inFlight),
    };
    return { Attributes: { ...q.raw, QueueArn: q.arn, ...counts } };
  }

  SendMessage({ QueueUrl, MessageBody }: Input<'SendMessage'>) {
    const m = this.byUrl(QueueUrl).send(MessageBody, this.now());
    return { MessageId: m.id, MD5OfMessageBody: m.md5 };
  }

  ReceiveMessage(input: Input<'ReceiveMessage'>) {
    const q = this.byUrl(input.QueueUrl);
    const got = q.receive(input.MaxNumberOfMessages ?? 1, input.VisibilityTimeout, this.now(), this.byArn);
    const all = input.MessageSystemAttributeNames?.includes('All') ?? false;
    return { Messages: got.map((m) => this.message(m, all)) };
  }

  DeleteMessage({ QueueUrl, ReceiptHandle }: Input<'DeleteMessage'>) {
    this.byUrl(QueueUrl).delete(ReceiptHandle, this.now());
    return {};
  }

  DeleteMessageBatch({ QueueUrl, Entries }: Input<'DeleteMessageBatch'>) {
    const q = this.byUrl(QueueUrl);
    if (Entries.length === 0) throw batchError('EmptyBatchRequest', 'The batch request has no entries.');
    if (Entries.length > 10)
      throw batchError(
        'TooManyEntriesInBatchRequest',
        `At most 10 entries per request, got ${Entries.length}.`,
      );
    if (new Set(Entries.map((e) => e.Id)).size !== Entries.length)
      throw batchError('BatchEntryIdsNotDistinct', 'Two or more batch entries have the same Id.');
    const Successful: { Id: string }[] = [];
    const Failed: { Id: string; SenderFault: boolean; Code: string; Message: string }[] = [];
    for (const e of Entries) {
      try {
        q.delete(e.ReceiptHandle, this.now());
        Successful.push({ Id: e.Id });
      } catch (err: unknown) {
        if (!(err instanceof SqsError)) throw err;
        Failed.push({ Id: e.Id, SenderFault: true, Code: err.queryCode, Message: err.message });
      }
    }
    return { Successful, Failed };
  }

  /** Lambda's event source mapping asks for every system attribute; these are the four the emulator keeps. */
  private message(m: EmuMessage, withAttributes: boolean) {
    const attributes = {
      ApproximateReceiveCount: String(m.receiveCount),
      SentTimestamp: String(m.sentAt),
      ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt ?? m.sentAt),
      SenderId: ACCOUNT,
    };
    const base = { MessageId: m.id, ReceiptHandle: m.handle, MD5OfBody: m.md5, Body: m.body };
    return withAttributes ? { ...base, Attributes: attributes } : base;
  }
}
