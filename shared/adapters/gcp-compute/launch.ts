// One launch attempt on one offering: insert or bulkInsert, then wait on its zonal operation.
// A stockout or quota error is not a failure of the launch but a refused offering to record and skip.
import type { protos } from '@google-cloud/compute';
import { FatalCloudError, RetryableCloudError } from '../../ports/cloud-provider/errors.ts';
import { type LaunchOption } from '../../model/launch-options.ts';
import { type UnavailableOffering } from '../../model/unavailable-offering.ts';
import type { GceContext } from './gce-context.ts';
import { OperationError, classifyGceError, refusalCode, toCloudError } from './errors.ts';
import { waitForOperation } from './operations.ts';
import { withThrottleRetry } from './retry.ts';

type Operation = protos.google.cloud.compute.v1.IOperation;

export function refusal(option: LaunchOption, reason: string): UnavailableOffering {
  return { instanceType: option.instanceType, zone: option.zone, capacityType: option.capacityType, reason };
}

/** `alreadyExists` counts as launched when the caller names the instance (a retried insert). */
export async function launchAttempt(
  ctx: GceContext,
  option: LaunchOption,
  send: () => Promise<unknown>,
  namedInstance = false,
): Promise<'launched' | UnavailableOffering> {
  try {
    const [lro] = (await withThrottleRetry(send, ctx.config.retry, ctx.sleep)) as [
      { latestResponse?: Operation },
    ];
    await waitForOperation({
      operations: ctx.clients.operations,
      project: ctx.config.project,
      zone: option.zone,
      operation: (lro.latestResponse ?? {}) as Operation,
      timeoutMs: ctx.config.operationTimeoutMs,
      now: () => ctx.clock.now().getTime(),
    });
    return 'launched';
  } catch (err) {
    const kind = classifyGceError(err);
    // A stockout, an exhausted subnetwork or a quota: this offering is unavailable, the next may launch.
    if (kind === 'capacity' || kind === 'quota')
      return refusal(option, refusalCode(err) ?? 'ZONE_RESOURCE_POOL_EXHAUSTED');
    if (kind === 'already-exists' && namedInstance) return 'launched';
    if (err instanceof RetryableCloudError) throw err;
    if (err instanceof OperationError && kind === 'throttled')
      throw new RetryableCloudError(`Compute Engine launch failed, try again: ${err.message}`, {
        cause: err,
      });
    if (err instanceof OperationError)
      throw new FatalCloudError(`Compute Engine refused the launch: ${err.message}`, { cause: err });
    throw toCloudError(err, 'instances.insert');
  }
}
