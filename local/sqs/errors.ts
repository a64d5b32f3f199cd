// Errors the SQS emulator answers with, as SQS's JSON protocol sends them: HTTP 400, `__type` naming the
// modelled exception, and the x-amzn-query-error header carrying the Query-protocol code the SDK also reads.
export class SqsError extends Error {
  override readonly name = 'SqsError';
  constructor(
    /** The modelled exception, e.g. QueueDoesNotExist (sent as com.amazonaws.sqs#QueueDoesNotExist). */
    readonly type: string,
    /** The Query-protocol code, e.g. AWS.SimpleQueueService.NonExistentQueue. */
    readonly queryCode: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export const noQueue = (what: string): SqsError =>
  new SqsError(
    'QueueDoesNotExist',
    'AWS.SimpleQueueService.NonExistentQueue',
    `The specified queue does not exist: ${what}.`,
  );
export const invalidParameter = (message: string): SqsError =>
  new SqsError('InvalidParameterValueException', 'InvalidParameterValue', message);
export const invalidAttributeValue = (message: string): SqsError =>
  new SqsError('InvalidAttributeValue', 'InvalidAttributeValue', message);
export const invalidAttributeName = (name: string): SqsError =>
  new SqsError('InvalidAttributeName', 'InvalidAttributeName', `Unknown Attribute ${name}.`);
export const invalidHandle = (handle: string): SqsError =>
  new SqsError(
    'ReceiptHandleIsInvalid',
    'ReceiptHandleIsInvalid',
    `The input receipt handle "${handle}" is not a valid receipt handle.`,
  );
