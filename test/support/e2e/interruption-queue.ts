// The interruption path as the packaged template deploys it, on local servers: the queue and its dead-letter
// queue created in the SQS emulator with the template's own properties, the EventBridge rules that target the
// queue (their patterns), and the lifecycle event source mapping (batch size, ReportBatchItemFailures).
import { CreateQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { matchesPattern } from '../../../local/sqs/event-pattern.ts';
import type { EventSourceMapping } from '../../../local/sqs/event-source.ts';
import type { SqsEmulator } from '../../../local/sqs/server.ts';
import type { CfnTemplate } from '../../infra/support/package.ts';
import { sqsMappingsOf } from '../../infra/support/template.ts';

type Resource = CfnTemplate['Resources'][string];
const getAtt = (v: unknown): string | undefined =>
  (v as { 'Fn::GetAtt'?: [string, string] })?.['Fn::GetAtt']?.[0];

export interface Rule {
  readonly id: string;
  readonly pattern: unknown;
}

export interface InterruptionQueue {
  readonly client: SQSClient;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  readonly maxReceiveCount: number;
  readonly visibilityTimeoutS: number;
  readonly rules: readonly Rule[];
  readonly mapping: EventSourceMapping;
  /** EventBridge: every rule whose pattern matches sends the event to the queue; returns the rules' ids. */
  publish(event: unknown): Promise<string[]>;
}

function resource(t: CfnTemplate, id: string): Resource {
  const r = t.Resources[id];
  if (!r) throw new Error(`the packaged template has no ${id}`);
  return r;
}

/** CreateQueue attributes from an AWS::SQS::Queue's properties (values as strings, as SQS takes them). */
function attributesOf(r: Resource, arnOf: (id: string) => string): Record<string, string> {
  const p = r.Properties;
  const out: Record<string, string> = {};
  for (const k of ['VisibilityTimeout', 'MessageRetentionPeriod', 'SqsManagedSseEnabled'])
    if (p[k] !== undefined) out[k] = String(p[k]);
  const redrive = p.RedrivePolicy as { deadLetterTargetArn: unknown; maxReceiveCount: unknown } | undefined;
  if (redrive) {
    const dlq = getAtt(redrive.deadLetterTargetArn);
    if (!dlq) throw new Error('RedrivePolicy.deadLetterTargetArn must be Fn::GetAtt of a queue');
    out.RedrivePolicy = JSON.stringify({
      deadLetterTargetArn: arnOf(dlq),
      maxReceiveCount: Number(redrive.maxReceiveCount),
    });
  }
  return out;
}

/** The queue the function's one event source mapping reads, and that queue's dead-letter queue. */
function queuesOf(t: CfnTemplate, fn: string) {
  const [mapping, ...more] = sqsMappingsOf(t, fn);
  if (!mapping || more.length > 0) throw new Error(`${fn} must have exactly one SQS event source mapping`);
  const queueId = getAtt(mapping.Properties.EventSourceArn);
  if (!queueId) throw new Error('the event source mapping must name its queue by Fn::GetAtt');
  const redrive = resource(t, queueId).Properties.RedrivePolicy as
    { deadLetterTargetArn?: unknown } | undefined;
  const dlqId = getAtt(redrive?.deadLetterTargetArn);
  if (!dlqId) throw new Error(`${queueId} has no dead-letter queue`);
  return { mapping, queueId, dlqId };
}

/** The EventBridge rules with a target that is the queue. */
const rulesTargeting = (t: CfnTemplate, queueId: string): Rule[] =>
  Object.entries(t.Resources)
    .filter(([, r]) => r.Type === 'AWS::Events::Rule')
    .filter(([, r]) => (r.Properties.Targets as { Arn: unknown }[]).some((x) => getAtt(x.Arn) === queueId))
    .map(([id, r]) => ({ id, pattern: r.Properties.EventPattern }));

/** CreateQueue with the template's name and properties; a queue it refers to must exist already. */
async function createQueue(client: SQSClient, sqs: SqsEmulator, t: CfnTemplate, id: string): Promise<string> {
  const arnOf = (ref: string) => {
    const q = sqs.queues.get(String(resource(t, ref).Properties.QueueName));
    if (!q) throw new Error(`${ref} must be created before ${id}`);
    return q.arn;
  };
  const r = resource(t, id);
  const out = await client.send(
    new CreateQueueCommand({ QueueName: String(r.Properties.QueueName), Attributes: attributesOf(r, arnOf) }),
  );
  return String(out.QueueUrl);
}

export async function interruptionQueue(
  t: CfnTemplate,
  sqs: SqsEmulator,
  fn = 'lifecycle',
): Promise<InterruptionQueue> {
  const { mapping, queueId, dlqId } = queuesOf(t, fn);
  const queue = resource(t, queueId);
  const client = new SQSClient({
    endpoint: sqs.endpoint,
    region: sqs.region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const dlqUrl = await createQueue(client, sqs, t, dlqId);
  const queueUrl = await createQueue(client, sqs, t, queueId);
  const rules = rulesTargeting(t, queueId);
  const redrive = queue.Properties.RedrivePolicy as { maxReceiveCount: unknown };
  const responseTypes = (mapping.Properties.FunctionResponseTypes ?? []) as string[];
  return {
    client,
    queueUrl,
    dlqUrl,
    maxReceiveCount: Number(redrive.maxReceiveCount),
    visibilityTimeoutS: Number(queue.Properties.VisibilityTimeout),
    rules,
    mapping: {
      client,
      queueUrl,
      queueArn: String(sqs.queues.get(String(queue.Properties.QueueName))?.arn),
      region: sqs.region,
      batchSize: Number(mapping.Properties.BatchSize),
      reportBatchItemFailures: responseTypes.includes('ReportBatchItemFailures'),
    },
    // EventBridge delivers once per matching rule: each rule is its own target.
    async publish(event) {
      const matched = rules.filter((r) => matchesPattern(r.pattern, event)).map((r) => r.id);
      for (const _ of matched)
        await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(event) }));
      return matched;
    },
  };
}
