// consolidate (scheduled every minute): validates the EventBridge event, then under the consolidation lease
// reads the cluster, runs one pass and hands its held proposals, in order, to admit (async invoke). An
// overlapping start finds the lease held and returns `held` at once; the walk never outlives the invocation.
import { handOffToAdmit } from '../../shared/loop/admit-payload.ts';
import { consolidate, withinInvocation, type ConsolidateResult } from '../../shared/loop/consolidate.ts';
import { leaseOwner } from '../../shared/loop/with-lease.ts';
import {
  buildTime,
  invocation,
  parseContext,
  parseEvent,
  remainingMs,
  scheduledEventSchema,
} from '../compose/index.ts';
import { serveIfDiscoveryWorker } from '../../shared/adapters/workers/index.ts';
import { consolidateDeps, type ConsolidateHandlerDeps } from './deps.ts';

export type ConsolidateOutcome =
  | {
      readonly outcome: 'ran';
      readonly pass: ConsolidateResult['pass']['outcome'];
      readonly timedOut: boolean;
      readonly handedOff: number;
    }
  | { readonly outcome: 'held'; readonly holder: string; readonly reason: 'held' | 'same-run' };

export function createConsolidateHandler(deps: () => Promise<ConsolidateHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<ConsolidateOutcome> => {
    const scheduled = parseEvent(scheduledEventSchema, event, 'consolidate event');
    const ctx = parseContext(context);
    const d = await deps();
    const { loop, settings } = d;
    const walks = settings.options.multiNodeTimeoutMs + settings.options.singleNodeTimeoutMs;
    return invocation(d.obs, { requestId: ctx.awsRequestId, passId: scheduled.id }, async () => {
      const r = await consolidate(
        {
          ...loop,
          timer: buildTime().timer,
          logger: d.obs.logger,
          handOff: handOffToAdmit(loop.invoker, loop.clock, settings.clusterName, scheduled.id),
        },
        {
          cluster: settings.clusterName,
          owner: leaseOwner(ctx.awsRequestId, loop.nonce()),
          runId: scheduled.id,
          options: withinInvocation(settings.options, remainingMs(ctx, walks)),
          ...(settings.leaseTtlMs ? { leaseTtlMs: settings.leaseTtlMs } : {}),
        },
      );
      if (r.outcome === 'held') return r;
      return {
        outcome: 'ran',
        pass: r.pass.outcome,
        timedOut: r.pass.timedOut,
        handedOff: r.handedOff.length,
      };
    });
  };
}

export const handler = createConsolidateHandler(consolidateDeps);

// A discovery thread started on this bundle (deps.ts) serves the walk instead (docs/mechanisms/parallel-discovery.md).
await serveIfDiscoveryWorker();
