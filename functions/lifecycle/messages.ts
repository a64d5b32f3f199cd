// SQS records of the interruption queue as queue messages: the body is one EventBridge event, translated into
// interruption signals by the EC2 adapter's parser; a body that is not such an event becomes an error message.
import { ec2SignalsFromEvents } from '../../shared/adapters/aws-ec2/index.ts';
import type { QueueMessage } from '../../shared/loop/interruption-queue.ts';
import type { SqsRecord } from '../compose/index.ts';

export function queueMessage(record: SqsRecord): QueueMessage {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch (err: unknown) {
    return {
      id: record.messageId,
      error: `body is not JSON: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const { signals, rejected } = ec2SignalsFromEvents([body]);
  const first = rejected[0];
  return first ? { id: record.messageId, error: first.error } : { id: record.messageId, signals };
}
