// The interruption path through the queue itself, as the packaged template deploys it: EventBridge-shaped
// events matched against the template's rules, sent into an SQS queue (the local emulator, the real
// @aws-sdk/client-sqs), polled as Lambda's event source mapping polls it, handled by the real lifecycle
// handler; successes are deleted, a failure reappears after the visibility timeout and, after the template's
// maxReceiveCount receives, moves to the dead-letter queue instead of being dropped.
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebalanceRecommendation, spotInterruptionWarning, stateChange } from '../../../local/ec2/events.ts';
import type { EmuInstance } from '../../../local/ec2/world.ts';
import { matchesPattern } from '../../../local/sqs/event-pattern.ts';
import { pollOnce } from '../../../local/sqs/event-source.ts';
import { startSqsEmulator, type SqsEmulator } from '../../../local/sqs/server.ts';
import { packagedService } from '../../infra/support/packaged.ts';
import type { CfnTemplate } from '../../infra/support/package.ts';
import { nodePool, pod, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { interruptionQueue, type InterruptionQueue } from '../../support/e2e/interruption-queue.ts';
import { lifecycleHandler } from '../../support/e2e/functions.ts';
import { lambdaContext } from '../../support/e2e/lambda-events.ts';
import { annotationsOf, bringUp, instanceOf, nodeOf, providerIdOf } from '../../support/e2e/steps.ts';

const CAUSE = 'kraftsman.dev/termination-cause';

const healthScheduledChange = (instanceId: string, service = 'EC2', category = 'scheduledChange') => ({
  version: '0',
  id: `health-${instanceId}-${service}-${category}`,
  'detail-type': 'AWS Health Event',
  source: 'aws.health',
  account: '123456789012',
  time: new Date().toISOString(),
  region: 'us-east-1',
  resources: [instanceId],
  detail: {
    service,
    eventTypeCategory: category,
    eventTypeCode: 'AWS_EC2_PERSISTENT_INSTANCE_RETIREMENT_SCHEDULED',
    affectedEntities: [{ entityValue: instanceId }],
  },
});

let template: CfnTemplate;
let h: E2eHarness;
let sqs: SqsEmulator;
let q: InterruptionQueue;

beforeAll(async () => {
  ({ template } = await packagedService());
  h = await startHarness({
    objects: [nodePool('aws-spot', 'aws', { capacityTypes: ['spot'], instanceTypes: ['g5.xlarge'] })],
  });
  wireLaunchers(h);
  sqs = await startSqsEmulator({ now: () => h.clock.now().getTime() });
  q = await interruptionQueue(template, sqs);
}, 600_000);
afterAll(async () => {
  q?.client.destroy();
  await sqs?.close();
  await h?.close();
});

const counts = async (url: string) => {
  const out = await q.client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }));
  return {
    visible: Number(out.Attributes?.ApproximateNumberOfMessages),
    inFlight: Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible),
  };
};
const poll = () => pollOnce(q.mapping, (event) => lifecycleHandler(h)(event, lambdaContext('lifecycle')));

describe('the packaged template: rules, queue and event source mapping', () => {
  it('routes each interruption event to exactly its rule, and nothing else to the queue', () => {
    const i = { instanceId: 'i-0123456789abcdef0', state: 'running' } as EmuInstance;
    const world = h.ec2.world;
    const route = (e: unknown) => q.rules.filter((r) => matchesPattern(r.pattern, e)).map((r) => r.id);
    expect(route(spotInterruptionWarning(world, i))).toEqual(['SpotInterruptionRule']);
    expect(route(rebalanceRecommendation(world, i))).toEqual(['RebalanceRecommendationRule']);
    for (const state of ['stopping', 'stopped', 'shutting-down', 'terminated'])
      expect(route({ ...stateChange(world, i), detail: { 'instance-id': i.instanceId, state } })).toEqual([
        'InstanceStateChangeRule',
      ]);
    expect(route(healthScheduledChange(i.instanceId))).toEqual(['ScheduledChangeRule']);
    // What the rules must not deliver: a node starting, other services' and other categories' Health events.
    for (const state of ['pending', 'running'])
      expect(route({ ...stateChange(world, i), detail: { 'instance-id': i.instanceId, state } })).toEqual([]);
    expect(route(healthScheduledChange(i.instanceId, 'RDS'))).toEqual([]);
    expect(route(healthScheduledChange(i.instanceId, 'EC2', 'issue'))).toEqual([]);
    expect(route({ ...spotInterruptionWarning(world, i), source: 'aws.events' })).toEqual([]);
  });

  it('lets a failed message reach the dead-letter queue before it expires', () => {
    expect(q.mapping.reportBatchItemFailures).toBe(true);
    expect(q.maxReceiveCount).toBeGreaterThan(1);
    const queue = sqs.queues.get(String(template.Resources.InterruptionQueue?.Properties.QueueName));
    // maxReceiveCount receives, a visibility timeout apart: retention shorter than that drops the message.
    expect(queue?.attributes.retentionS).toBeGreaterThan(q.maxReceiveCount * q.visibilityTimeoutS);
  });
});

describe('lifecycle through the interruption queue', () => {
  const workload = (rs: string, n: number) =>
    Array.from({ length: n }, (_, i) =>
      pod(`${rs}-p${i}`, { gpus: 1, replicaSet: rs, nodeSelector: { 'karpenter.sh/nodepool': 'aws-spot' } }),
    );
  const instance = (claim: Parameters<typeof providerIdOf>[0]): EmuInstance => {
    const i = h.ec2.world.instances.get(instanceOf(providerIdOf(claim)));
    if (!i) throw new Error(`no EC2 instance for ${String(claim?.metadata.name)}`);
    return i;
  };

  it('delivers, handles and deletes; a failure reappears, then moves to the dead-letter queue', async () => {
    const claims = await bringUp(h, workload('queued', 4));
    expect(claims).toHaveLength(4);
    const [a, b, c, d] = claims.map(instance) as [EmuInstance, EmuInstance, EmuInstance, EmuInstance];
    const world = h.ec2.world;
    // A warning EventBridge would deliver but lifecycle cannot act on: its detail names no instance.
    const broken = { ...spotInterruptionWarning(world, a), detail: { 'instance-action': 'terminate' } };
    const routed = [
      await q.publish(spotInterruptionWarning(world, a)),
      await q.publish(rebalanceRecommendation(world, b)),
      await q.publish({
        ...stateChange(world, c),
        detail: { 'instance-id': c.instanceId, state: 'stopping' },
      }),
      await q.publish(healthScheduledChange(d.instanceId)),
      await q.publish(broken),
      await q.publish({
        ...stateChange(world, b),
        detail: { 'instance-id': b.instanceId, state: 'running' },
      }),
    ];
    expect(routed.map((r) => r.length)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(await counts(q.queueUrl)).toEqual({ visible: 5, inFlight: 0 });

    const first = await poll();
    expect(first.error).toBeUndefined();
    expect(first.received).toHaveLength(Math.min(5, q.mapping.batchSize));
    expect(first.left).toHaveLength(1);
    expect(first.deleted).toHaveLength(4);
    expect(await counts(q.queueUrl)).toEqual({ visible: 0, inFlight: 1 });
    const causeOf = (claim: (typeof claims)[number]) => {
      const n = nodeOf(h, claim);
      return n ? annotationsOf(n)[CAUSE] : undefined;
    };
    expect(claims.map(causeOf)).toEqual([
      'spot-interruption',
      undefined,
      'instance-stopped',
      'scheduled-maintenance',
    ]);
    // A drained claim is deleted; its finalizer holds it, marked, until the instance is gone.
    const live = (x: (typeof claims)[number]) =>
      h.list('NodeClaim').some((c) => c.metadata.name === x.metadata.name && !c.metadata.deletionTimestamp);
    expect(claims.map(live)).toEqual([false, true, false, false]);
    const rejected = h.logger.entries.filter((e) => e.message === 'interruption message rejected');
    expect(rejected.map((e) => e.fields.messageId)).toEqual(first.left);

    // Invisible until the visibility timeout passes, then received again, as many times as the template says.
    expect((await poll()).received).toEqual([]);
    for (let receive = 2; receive <= q.maxReceiveCount; receive++) {
      h.clock.advance(q.visibilityTimeoutS * 1000);
      const again = await poll();
      expect(again.received, `receive ${receive}`).toEqual(first.left);
      expect(again.left).toEqual(first.left);
    }
    h.clock.advance(q.visibilityTimeoutS * 1000);
    expect((await poll()).received).toEqual([]);
    expect(await counts(q.queueUrl)).toEqual({ visible: 0, inFlight: 0 });
    expect(await counts(q.dlqUrl)).toEqual({ visible: 1, inFlight: 0 });
    const dlq = sqs.queues.get(String(template.Resources.InterruptionDeadLetterQueue?.Properties.QueueName));
    const [dead] =
      dlq?.receive(1, 0, h.clock.now().getTime(), () => {
        throw new Error('no redrive');
      }) ?? [];
    expect(dead && JSON.parse(dead.body)).toEqual(broken);
    expect(dead?.id).toEqual(first.left[0]);
  });

  it('leaves the whole batch when the function fails, and the batch comes back', async () => {
    await q.publish(
      rebalanceRecommendation(h.ec2.world, { instanceId: 'i-0fffffffffffffff0' } as EmuInstance),
    );
    const failed = await pollOnce(q.mapping, () => Promise.reject(new Error('container crashed')));
    expect(failed.received).toHaveLength(1);
    expect(failed.left).toEqual(failed.received);
    expect(String(failed.error)).toMatch(/container crashed/);
    h.clock.advance(q.visibilityTimeoutS * 1000);
    const handled = await poll();
    expect(handled.received).toEqual(failed.received);
    expect(handled.deleted).toEqual(failed.received);
    expect(await counts(q.queueUrl)).toEqual({ visible: 0, inFlight: 0 });
  });
});
