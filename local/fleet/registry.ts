// The functions the local fleet runs: each a Lambda handler (functions/<fn>/handler.ts) on its EventBridge
// schedule, invoked with the event and context shapes Lambda gives it (docs/architecture.md).
import type { Clock } from '../../shared/ports/clock.ts';

export type LambdaHandler = (event: unknown, context: unknown) => Promise<unknown>;

export interface FleetFunction {
  readonly name: string;
  /** The EventBridge rate, in simulated minutes. */
  readonly everyMinutes: number;
  /** The function's Lambda timeout: what getRemainingTimeInMillis counts down from. */
  readonly timeoutMs: number;
  readonly handler: LambdaHandler;
}

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';

/** An EventBridge "Scheduled Event", as Lambda receives it from a rate() rule; `id` is unique per firing. */
export function scheduledEvent(fn: string, at: Date, seq: number): Record<string, unknown> {
  return {
    version: '0',
    id: `local-${fn}-${seq}`,
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: ACCOUNT,
    time: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: REGION,
    resources: [`arn:aws:events:${REGION}:${ACCOUNT}:rule/kraftsman-${fn}`],
    detail: {},
  };
}

/** An SQS batch of EventBridge events, as the interruption queue's event source mapping delivers it. */
export function sqsBatch(bodies: readonly unknown[], seq: number): { Records: Record<string, unknown>[] } {
  return {
    Records: bodies.map((b, i) => ({
      messageId: `local-msg-${seq}-${i}`,
      receiptHandle: `local-handle-${i}`,
      body: JSON.stringify(b),
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: {},
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${REGION}:${ACCOUNT}:kraftsman-interruptions`,
      awsRegion: REGION,
    })),
  };
}

/**
 * The Lambda context fields the handlers read; the deadline is the function's timeout from now. `seq` tells the
 * function's invocations apart (its request id), the same on every run of a seed.
 */
export function lambdaContext(
  fn: string,
  seq: number | string,
  timeoutMs: number,
  clock: Clock,
): Record<string, unknown> {
  const deadline = clock.now().getTime() + timeoutMs;
  return {
    functionName: `kraftsman-${fn}`,
    functionVersion: '$LATEST',
    awsRequestId: `local-${fn}-${seq}`,
    invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:kraftsman-${fn}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/kraftsman-${fn}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - clock.now().getTime()),
  };
}
