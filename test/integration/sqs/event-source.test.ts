// Lambda's event source mapping and EventBridge's pattern matching as the emulator runs them: partial-batch
// answers keep only the listed items, an answer naming an id outside the batch keeps the whole batch, and
// patterns match exact values, arrays and nesting while refusing content filters by name.
import { CreateQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventPatternError, matchesPattern } from '../../../local/sqs/event-pattern.ts';
import { pollOnce, type EventSourceMapping } from '../../../local/sqs/event-source.ts';
import { startSqsEmulator, type SqsEmulator } from '../../../local/sqs/server.ts';

let now = 1_700_000_000_000;
let sqs: SqsEmulator;
let esm: EventSourceMapping;
beforeAll(async () => {
  sqs = await startSqsEmulator({ now: () => now });
  const client = new SQSClient({
    endpoint: sqs.endpoint,
    region: sqs.region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  const q = await client.send(
    new CreateQueueCommand({ QueueName: 'esm', Attributes: { VisibilityTimeout: '60' } }),
  );
  const queueUrl = String(q.QueueUrl);
  esm = {
    client,
    queueUrl,
    queueArn: String(sqs.queues.get('esm')?.arn),
    region: sqs.region,
    batchSize: 10,
    reportBatchItemFailures: true,
  };
});
afterAll(async () => {
  esm?.client.destroy();
  await sqs?.close();
});

const send = (body: string) =>
  esm.client.send(new SendMessageCommand({ QueueUrl: esm.queueUrl, MessageBody: body }));
type Batch = {
  Records: { messageId: string; body: string; eventSource: string; attributes: Record<string, string> }[];
};

describe('event source mapping', () => {
  it('builds the SQS event, deletes the successes, keeps the reported failures', async () => {
    await send('ok');
    await send('bad');
    let seen: Batch | undefined;
    const out = await pollOnce(esm, (event) => {
      seen = event as Batch;
      const bad = seen.Records.filter((r) => r.body === 'bad').map((r) => ({ itemIdentifier: r.messageId }));
      return Promise.resolve({ batchItemFailures: bad });
    });
    expect(seen?.Records.map((r) => [r.body, r.eventSource, r.attributes.ApproximateReceiveCount])).toEqual([
      ['ok', 'aws:sqs', '1'],
      ['bad', 'aws:sqs', '1'],
    ]);
    expect(out.deleted).toHaveLength(1);
    expect(out.left).toHaveLength(1);
    now += 60_000;
    const again = await pollOnce(esm, () =>
      Promise.resolve({ batchItemFailures: [{ itemIdentifier: 'not-in-batch' }] }),
    );
    expect(again.received).toEqual(out.left);
    expect(again.left).toEqual(out.left);
    now += 60_000;
    const last = await pollOnce(esm, () => Promise.resolve(undefined));
    expect(last.deleted).toEqual(out.left);
  });
});

describe('event patterns', () => {
  const event = {
    source: 'aws.ec2',
    'detail-type': 'X',
    resources: ['a', 'b'],
    detail: { state: 'stopped' },
  };
  it('matches values, any element of an event array, and nested objects', () => {
    expect(matchesPattern({ source: ['aws.ec2'], detail: { state: ['stopping', 'stopped'] } }, event)).toBe(
      true,
    );
    expect(matchesPattern({ resources: ['b'] }, event)).toBe(true);
    expect(matchesPattern({ detail: { state: ['running'] } }, event)).toBe(false);
    expect(matchesPattern({ detail: { missing: ['x'] } }, event)).toBe(false);
  });
  it('refuses what it does not implement, naming where', () => {
    expect(() => matchesPattern({ detail: { state: [{ prefix: 'stop' }] } }, event)).toThrow(
      EventPatternError,
    );
    expect(() => matchesPattern({ detail: { state: [{ prefix: 'stop' }] } }, event)).toThrow(
      /\$\.detail\.state/,
    );
    expect(() => matchesPattern({ source: 'aws.ec2' }, event)).toThrow(/array of values/);
  });
});
