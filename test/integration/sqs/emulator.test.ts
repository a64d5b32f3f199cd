// The SQS emulator through the real @aws-sdk/client-sqs: errors arrive as the SDK's modelled exceptions,
// checksums verify, visibility timeouts and retention run on the injected clock, and the redrive policy moves
// a message received maxReceiveCount times to the dead-letter queue — unless retention drops it first.
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  InvalidAttributeValue,
  QueueDoesNotExist,
  ReceiptHandleIsInvalid,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsEmulator, type SqsEmulator } from '../../../local/sqs/server.ts';

let now = 1_700_000_000_000;
let sqs: SqsEmulator;
let client: SQSClient;
beforeAll(async () => {
  sqs = await startSqsEmulator({ now: () => now });
  client = new SQSClient({
    endpoint: sqs.endpoint,
    region: sqs.region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client?.destroy();
  await sqs?.close();
});

let n = 0;
async function queuePair(attrs: { visibility: number; retention: number; maxReceiveCount: number }) {
  n += 1;
  const dlq = await client.send(new CreateQueueCommand({ QueueName: `dlq-${n}` }));
  const dlqArn = sqs.queues.get(`dlq-${n}`)?.arn;
  const q = await client.send(
    new CreateQueueCommand({
      QueueName: `q-${n}`,
      Attributes: {
        VisibilityTimeout: String(attrs.visibility),
        MessageRetentionPeriod: String(attrs.retention),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlqArn,
          maxReceiveCount: attrs.maxReceiveCount,
        }),
      },
    }),
  );
  return { url: String(q.QueueUrl), dlqUrl: String(dlq.QueueUrl) };
}
const receive = (url: string) =>
  client.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      MessageSystemAttributeNames: ['All'],
    }),
  );

describe('SQS emulator', () => {
  it('answers with the modelled exceptions', async () => {
    const missing = `${sqs.endpoint}/123456789012/nope`;
    await expect(
      client.send(new SendMessageCommand({ QueueUrl: missing, MessageBody: 'x' })),
    ).rejects.toBeInstanceOf(QueueDoesNotExist);
    await expect(
      client.send(new CreateQueueCommand({ QueueName: 'bad', Attributes: { VisibilityTimeout: '99999' } })),
    ).rejects.toBeInstanceOf(InvalidAttributeValue);
    await expect(
      client.send(
        new CreateQueueCommand({
          QueueName: 'bad2',
          Attributes: {
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: 'arn:aws:sqs:us-east-1:1:none',
              maxReceiveCount: 5,
            }),
          },
        }),
      ),
    ).rejects.toBeInstanceOf(QueueDoesNotExist);
    const { url } = await queuePair({ visibility: 30, retention: 600, maxReceiveCount: 2 });
    await expect(
      client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: 'forged' })),
    ).rejects.toBeInstanceOf(ReceiptHandleIsInvalid);
  });

  it('hides a received message for the visibility timeout; only the latest receipt handle deletes it', async () => {
    const { url } = await queuePair({ visibility: 30, retention: 600, maxReceiveCount: 5 });
    const sent = await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: '{"a":1}' }));
    const first = await receive(url);
    expect(first.Messages?.map((m) => m.MessageId)).toEqual([sent.MessageId]);
    expect(first.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe('1');
    expect((await receive(url)).Messages ?? []).toEqual([]);
    now += 30_000;
    const second = await receive(url);
    expect(second.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe('2');
    // The first handle is stale: accepted, nothing deleted.
    await client.send(
      new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: String(first.Messages?.[0]?.ReceiptHandle) }),
    );
    now += 30_000;
    const third = await receive(url);
    expect(third.Messages).toHaveLength(1);
    const out = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: [{ Id: 'a', ReceiptHandle: String(third.Messages?.[0]?.ReceiptHandle) }],
      }),
    );
    expect(out.Successful?.map((s) => s.Id)).toEqual(['a']);
    now += 30_000;
    expect((await receive(url)).Messages ?? []).toEqual([]);
  });

  it('moves a message to the dead-letter queue after maxReceiveCount receives', async () => {
    const { url, dlqUrl } = await queuePair({ visibility: 720, retention: 7200, maxReceiveCount: 5 });
    const sent = await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'poison' }));
    for (let i = 1; i <= 5; i++) {
      expect(
        (await receive(url)).Messages?.map((m) => m.MessageId),
        `receive ${i}`,
      ).toEqual([sent.MessageId]);
      now += 720_000;
    }
    expect((await receive(url)).Messages ?? []).toEqual([]);
    expect((await receive(dlqUrl)).Messages?.map((m) => m.Body)).toEqual(['poison']);
  });

  it('drops a message its retention outlives: 300 s retention never lets five 720 s receives happen', async () => {
    const { url, dlqUrl } = await queuePair({ visibility: 720, retention: 300, maxReceiveCount: 5 });
    await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'lost' }));
    expect((await receive(url)).Messages).toHaveLength(1);
    now += 720_000;
    expect((await receive(url)).Messages ?? []).toEqual([]);
    expect((await receive(dlqUrl)).Messages ?? []).toEqual([]);
  });
});
