// Waits on a zonal operation with ZoneOperationsClient.wait (compute 6.x has no op.promise()):
// wait returns when the operation is DONE or after its own deadline, so it is called in a loop.
// A DONE operation failed when it carries an `error` at all, or an HTTP error status — even when its
// `errors` list is empty — never only when that list has entries.
import type { ZoneOperationsClient, protos } from '@google-cloud/compute';
import { RetryableCloudError } from '../../ports/cloud-provider/errors.ts';
import { OperationError } from './errors.ts';

type Operation = protos.google.cloud.compute.v1.IOperation;

export async function waitForOperation(args: {
  operations: ZoneOperationsClient;
  project: string;
  zone: string;
  operation: Operation;
  timeoutMs: number;
  now: () => number;
}): Promise<Operation> {
  const deadline = args.now() + args.timeoutMs;
  let op = args.operation;
  while (String(op.status) !== 'DONE') {
    if (args.now() > deadline)
      throw new RetryableCloudError(
        `Compute Engine operation ${op.name} in ${args.zone} still ${String(op.status)} after ${args.timeoutMs} ms`,
      );
    [op] = await args.operations.wait({ project: args.project, zone: args.zone, operation: op.name ?? '' });
  }
  const errors = op.error?.errors ?? [];
  const httpStatus = Number(op.httpErrorStatusCode ?? 0);
  if (errors.length > 0 || op.error || httpStatus >= 400) {
    const detail =
      errors.length > 0
        ? errors.map((e) => `${e.code}: ${e.message}`).join('; ')
        : `failed without error details (HTTP ${httpStatus || 'status unknown'} ${op.httpErrorMessage ?? ''})`.trim();
    throw new OperationError(
      `operation ${op.operationType ?? ''} ${op.name}: ${detail}`,
      // Without codes the HTTP status decides: a 5xx is worth retrying, anything else is not.
      errors.length > 0
        ? errors.map((e) => e.code ?? '')
        : ['OPERATION_FAILED', ...(httpStatus ? [String(httpStatus)] : [])],
    );
  }
  return op;
}
