// orchestrate (scheduled every minute): validates the EventBridge event, then advances every open disruption
// command one step under the orchestration lease (docs/functions/orchestrate.md). An overlapping start
// returns `held` at once; a failed pass fails the invocation, and the next minute's run picks up from live state.
import { orchestrate, type OrchestrateResult } from '../../shared/loop/orchestrate.ts';
import { leaseOwner } from '../../shared/loop/with-lease.ts';
import { invocation, parseContext, parseEvent, scheduledEventSchema } from '../compose/index.ts';
import { orchestrateDeps, type OrchestrateHandlerDeps } from './deps.ts';

export function createOrchestrateHandler(deps: () => Promise<OrchestrateHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<OrchestrateResult> => {
    const scheduled = parseEvent(scheduledEventSchema, event, 'orchestrate event');
    const ctx = parseContext(context);
    const d = await deps();
    const { settings, loop } = d;
    return invocation(d.obs, { requestId: ctx.awsRequestId, passId: scheduled.id }, () =>
      orchestrate(loop, {
        cluster: settings.clusterName,
        owner: leaseOwner(ctx.awsRequestId, loop.nonce()),
        runId: scheduled.id,
        leaseTtlMs: settings.leaseTtlMs,
        replacementTimeoutMs: settings.replacementTimeoutMs,
        admissionGraceMs: settings.admissionGraceMs,
        replacementBackoffMs: settings.replacementBackoffMs,
      }),
    );
  };
}

export const handler = createOrchestrateHandler(orchestrateDeps);
