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

export async function interruptionQueue(
  t: CfnTemplate,
  sqs: SqsEmulator,
  fn = 'lifecycle',
): Promise<InterruptionQueue> {
  const [mapping, ...more] = sqsMappingsOf(t, fn);
  if (!mapping || more.length > 0) throw new Error(`${fn} must have exactly one SQS event source mapping`);
  const queueId = getAtt(mapping.Properties.EventSourceArn);
  if (!queueId) throw new Error('the event source mapping must name its queue by Fn::GetAtt');
  const queue = resource(t, queueId);
  const dlqId = getAtt(
    (queue.Properties.RedrivePolicy as { deadLetterTargetArn?: unknown } | undefined)?.deadLetterTargetArn,
  );
  if (!dlqId) throw new Error(`${queueId} has no dead-letter queue`);
  const client = new SQSClient({
    endpoint: sqs.endpoint,
    region: sqs.region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const create = async (id: string) => {
    const out = await client.send(
      new CreateQueueCommand({
        QueueName: String(resource(t, id).Properties.QueueName),
        Attributes: attributesOf(resource(t, id), (ref) => {
          const q = sqs.queues.get(String(resource(t, ref).Properties.QueueName));
          if (!q) throw new Error(`${ref} must be created before ${id}`);
          return q.arn;
        }),
      }),
    );
    return String(out.QueueUrl);
  };
  const dlqUrl = await create(dlqId);
  const queueUrl = await create(queueId);
  const queueArn = String(sqs.queues.get(String(queue.Properties.QueueName))?.arn);
  const rules = Object.entries(t.Resources)
    .filter(([, r]) => r.Type === 'AWS::Events::Rule')
    .filter(([, r]) => (r.Properties.Targets as { Arn: unknown }[]).some((x) => getAtt(x.Arn) === queueId))
    .map(([id, r]) => ({ id, pattern: r.Properties.EventPattern }));
  const redrive = JSON.parse(attributesOf(queue, () => 'unused').RedrivePolicy ?? '{}') as {
    maxReceiveCount: number;
  };
  return {
    client,
    queueUrl,
    dlqUrl,
    maxReceiveCount: redrive.maxReceiveCount,
    visibilityTimeoutS: Number(queue.Properties.VisibilityTimeout),
    rules,
    mapping: {
      client,
      queueUrl,
      queueArn,
      region: sqs.region,
      batchSize: Number(mapping.Properties.BatchSize),
      reportBatchItemFailures: JSON.stringify(mapping.Properties.FunctionResponseTypes ?? []).includes(
        'ReportBatchItemFailures',
      ),
    },
    async publish(event) {
      const matched = rules.filter((r) => matchesPattern(r.pattern, event)).map((r) => r.id);
      for (const _ of matched)
        await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(event) }));
      return matched;
    },
  };
}
