// The functions the local fleet runs: each a Lambda handler (functions/<fn>/handler.ts) on its EventBridge
// schedule, invoked with the event and context shapes Lambda gives it (docs/architecture.md).
export type LambdaHandler = (event: unknown, context: unknown) => Promise<unknown>;

export interface FleetFunction {
  readonly name: string;
  /** The EventBridge rate, in simulated minutes. */
  readonly everyMinutes: number;
  readonly handler: LambdaHandler;
}

export type HandlerRegistry = readonly FleetFunction[];

/** An EventBridge "Scheduled Event", as Lambda receives it from a rate() rule. */
export function scheduledEvent(fn: string, at: Date, seq: number): Record<string, unknown> {
  return {
    version: '0',
    id: `local-${fn}-${seq}`,
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'us-east-1',
    resources: [`arn:aws:events:us-east-1:000000000000:rule/kraftsman-${fn}`],
    detail: {},
  };
}

/** The Lambda context fields the handlers read; the deadline is the function's timeout from now. */
export function lambdaContext(
  fn: string,
  seq: number,
  timeoutMs: number,
  now: () => number,
): Record<string, unknown> {
  const deadline = now() + timeoutMs;
  return {
    functionName: `kraftsman-${fn}`,
    functionVersion: '$LATEST',
    awsRequestId: `local-${fn}-${seq}`,
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:kraftsman-${fn}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/kraftsman-${fn}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - now()),
  };
}
