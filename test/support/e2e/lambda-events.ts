// Lambda-shaped inputs for the handlers: EventBridge scheduled events, SQS batches of EventBridge events,
// and the context fields the handlers read.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../shared/ports/clock.ts';

export function scheduledEvent(clock: Clock, rule = 'kraftsman-schedule'): Record<string, unknown> {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: clock
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z'),
    region: 'us-east-1',
    resources: [`arn:aws:events:us-east-1:123456789012:rule/${rule}`],
    detail: {},
  };
}

export function sqsBatch(bodies: readonly unknown[]): { Records: Record<string, unknown>[] } {
  return {
    Records: bodies.map((b) => ({
      messageId: randomUUID(),
      receiptHandle: `handle-${randomUUID()}`,
      body: typeof b === 'string' ? b : JSON.stringify(b),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:kraftsman-interruptions',
      awsRegion: 'us-east-1',
    })),
  };
}

export function lambdaContext(functionName: string): { awsRequestId: string; functionName: string } {
  return { awsRequestId: randomUUID(), functionName };
}
