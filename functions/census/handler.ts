// census (scheduled every ten minutes): validates the EventBridge event, then under the census lease
// simulates every candidate, acts on none, stores the counts per NodePool and publishes them
// (docs/functions/census.md). The sweep's budget is cut to what the invocation has left; an overlapping start
// returns `held` at once; a truncated sweep says how many candidates it left unsimulated.
import { census } from '../../shared/loop/census.ts';
import { leaseOwner } from '../../shared/loop/with-lease.ts';
import { invocation, parseContext, parseEvent, remainingMs, scheduledEventSchema } from '../compose/index.ts';
import { censusDeps, type CensusHandlerDeps } from './deps.ts';

export type CensusHandlerResult =
  | {
      readonly outcome: 'ran';
      readonly candidates: number;
      readonly truncated: boolean;
      /** Candidates the budget left unsimulated. */
      readonly unreached: number;
      readonly nodePools: number;
      /** Worker invocations the sweep fanned out to (0: judged in this one), and the shards that brought no result. */
      readonly shards: number;
      readonly failedShards: readonly number[];
    }
  | { readonly outcome: 'held'; readonly holder: string; readonly reason: 'held' | 'same-run' };

export function createCensusHandler(deps: () => Promise<CensusHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<CensusHandlerResult> => {
    const scheduled = parseEvent(scheduledEventSchema, event, 'census event');
    const ctx = parseContext(context);
    const d = await deps();
    const { loop, settings } = d;
    return invocation(d.obs, { requestId: ctx.awsRequestId, passId: scheduled.id }, async () => {
      const r = await census(loop, {
        cluster: settings.clusterName,
        owner: leaseOwner(ctx.awsRequestId, loop.nonce()),
        runId: scheduled.id,
        options: settings.options,
        budgetMs: Math.min(settings.sweepBudgetMs, remainingMs(ctx, settings.sweepBudgetMs)),
        leaseTtlMs: settings.leaseTtlMs,
      });
      if (r.outcome === 'held') return r;
      return {
        outcome: 'ran',
        candidates: r.candidates,
        truncated: r.sweep.truncated,
        unreached: r.unreached,
        nodePools: r.results.length,
        shards: r.shards,
        failedShards: r.failedShards,
      };
    });
  };
}

export const handler = createCensusHandler(censusDeps);
