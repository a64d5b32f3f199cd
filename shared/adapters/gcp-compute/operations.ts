// Waits on a zonal operation with ZoneOperationsClient.wait (compute 6.x has no op.promise()):
// wait returns when the operation is DONE or after its own deadline, so it is called in a loop.
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
  if (errors.length > 0)
    throw new OperationError(
      `operation ${op.operationType ?? ''} ${op.name}: ${errors.map((e) => `${e.code}: ${e.message}`).join('; ')}`,
      errors.map((e) => e.code ?? ''),
    );
  return op;
}
