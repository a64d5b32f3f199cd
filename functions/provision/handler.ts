// provision (scheduled every minute): validates the EventBridge event, then watches and batches pending pods
// under the provisioning lease for most of the invocation. An overlapping start returns `held` at once.
import { provision, type ProvisionResult } from '../../shared/loop/provision.ts';
import { leaseOwner } from '../../shared/loop/with-lease.ts';
import { invocation, parseContext, parseEvent, remainingMs, scheduledEventSchema } from '../compose/index.ts';
import { provisionDeps, type ProvisionHandlerDeps } from './deps.ts';

export function createProvisionHandler(deps: () => Promise<ProvisionHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<ProvisionResult> => {
    const scheduled = parseEvent(scheduledEventSchema, event, 'provision event');
    const ctx = parseContext(context);
    const d = await deps();
    const { settings, loop } = d;
    return invocation(d.obs, { requestId: ctx.awsRequestId, passId: scheduled.id }, () =>
      provision(loop, {
        cluster: settings.clusterName,
        owner: leaseOwner(ctx.awsRequestId, loop.nonce()),
        runId: scheduled.id,
        leaseTtlMs: settings.leaseTtlMs,
        // Never watch past the invocation's own deadline.
        watch: {
          ...settings.watch,
          windowMs: Math.min(settings.watch.windowMs, remainingMs(ctx, settings.watch.windowMs)),
        },
        batch: settings.batch,
      }),
    );
  };
}

export const handler = createProvisionHandler(provisionDeps);
