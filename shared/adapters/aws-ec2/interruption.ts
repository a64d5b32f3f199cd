// EventBridge events about EC2 instances (spot interruption warnings, rebalance recommendations,
// state changes, AWS Health scheduled changes) validated with zod and translated into
// InterruptionSignals, as Karpenter's interruption controller reads its SQS queue. Pure.
import { z } from 'zod';
import type { InterruptionSignal } from '../../ports/cloud-provider/index.ts';
import { formatZodIssues } from '../../model/zod-issues.ts';

const envelope = {
  version: z.string(),
  id: z.string(),
  account: z.string(),
  time: z.iso.datetime({ offset: true }),
  region: z.string(),
  resources: z.array(z.string()).default([]),
};

export const spotInterruptionSchema = z.looseObject({
  ...envelope,
  source: z.literal('aws.ec2'),
  'detail-type': z.literal('EC2 Spot Instance Interruption Warning'),
  detail: z.looseObject({
    'instance-id': z.string().regex(/^i-[0-9a-f]+$/),
    'instance-action': z.enum(['terminate', 'stop', 'hibernate']),
  }),
});
export const rebalanceSchema = z.looseObject({
  ...envelope,
  source: z.literal('aws.ec2'),
  'detail-type': z.literal('EC2 Instance Rebalance Recommendation'),
  detail: z.looseObject({ 'instance-id': z.string().regex(/^i-[0-9a-f]+$/) }),
});
export const stateChangeSchema = z.looseObject({
  ...envelope,
  source: z.literal('aws.ec2'),
  'detail-type': z.literal('EC2 Instance State-change Notification'),
  detail: z.looseObject({
    'instance-id': z.string().regex(/^i-[0-9a-f]+$/),
    state: z.enum(['pending', 'running', 'stopping', 'stopped', 'shutting-down', 'terminated']),
  }),
});
export const scheduledChangeSchema = z.looseObject({
  ...envelope,
  source: z.literal('aws.health'),
  'detail-type': z.literal('AWS Health Event'),
  detail: z.looseObject({
    service: z.literal('EC2'),
    eventTypeCategory: z.string(),
    affectedEntities: z.array(z.looseObject({ entityValue: z.string() })).default([]),
  }),
});

// Discriminated by detail-type, so a malformed event's error names its bad field, not just "Invalid input".
export const ec2InterruptionEventSchema = z.discriminatedUnion('detail-type', [
  spotInterruptionSchema,
  rebalanceSchema,
  stateChangeSchema,
  scheduledChangeSchema,
]);
export type Ec2InterruptionEvent = z.infer<typeof ec2InterruptionEventSchema>;

export class InterruptionEventError extends Error {
  override name = 'InterruptionEventError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Validates one event; an unknown or malformed event is an error naming its detail-type and the field. */
export function parseEc2Event(input: unknown): Ec2InterruptionEvent {
  const parsed = ec2InterruptionEventSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const kind = (input as { 'detail-type'?: unknown } | null)?.['detail-type'];
  throw new InterruptionEventError(
    `EventBridge event ${JSON.stringify(kind ?? '<no detail-type>')} is not an EC2 interruption event we read (${formatZodIssues(parsed.error)})`,
    { cause: parsed.error },
  );
}

/**
 * Karpenter's rules: a spot interruption warning, a scheduled change, or a stopping/stopped/
 * shutting-down/terminated state deletes (drains) the claim; a rebalance recommendation is only
 * recorded; pending/running states mean nothing.
 */
export function ec2InterruptionSignals(event: Ec2InterruptionEvent): InterruptionSignal[] {
  const at = new Date(event.time);
  const one = (instance: string, cause: InterruptionSignal['cause'], drain: boolean): InterruptionSignal => ({
    cloud: 'aws',
    instance,
    cause,
    drain,
    at,
  });
  switch (event['detail-type']) {
    case 'EC2 Spot Instance Interruption Warning':
      return [one(event.detail['instance-id'], 'spot-interruption', true)];
    case 'EC2 Instance Rebalance Recommendation':
      return [one(event.detail['instance-id'], 'rebalance-recommendation', false)];
    case 'EC2 Instance State-change Notification': {
      const state = event.detail.state;
      if (state === 'pending' || state === 'running') return [];
      return [
        one(
          event.detail['instance-id'],
          state === 'stopping' || state === 'stopped' ? 'instance-stopped' : 'instance-terminated',
          true,
        ),
      ];
    }
    case 'AWS Health Event':
      if (event.detail.eventTypeCategory !== 'scheduledChange') return [];
      return event.detail.affectedEntities
        .filter((e) => /^i-[0-9a-f]+$/.test(e.entityValue))
        .map((e) => one(e.entityValue, 'scheduled-maintenance', true));
  }
}

/** Translates a batch (an SQS receive, an EventBridge delivery): bad events are counted, never fatal to the rest. */
export function ec2SignalsFromEvents(events: readonly unknown[]): {
  signals: InterruptionSignal[];
  rejected: { index: number; error: string }[];
} {
  const signals: InterruptionSignal[] = [];
  const rejected: { index: number; error: string }[] = [];
  events.forEach((raw, index) => {
    try {
      signals.push(...ec2InterruptionSignals(parseEc2Event(raw)));
    } catch (err) {
      rejected.push({ index, error: err instanceof Error ? err.message : String(err) });
    }
  });
  return { signals, rejected };
}
