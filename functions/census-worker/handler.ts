// census-worker (invoked by the census, one Event invocation per shard): validates the shard request, judges its
// candidates against the sweep's snapshot object and stores the shard's counts once (docs/functions/census.md).
// A failure fails the invocation: Lambda retries it, and the coordinator counts a shard with no result unreached.
import {
  censusShard,
  censusShardRequestSchema,
  type CensusShardOutcome,
} from '../../shared/loop/census-worker.ts';
import { LOOP_METRICS } from '../../shared/loop/disruption-metrics.ts';
import { parseEvent } from '../compose/events.ts';
import { invocation, parseContext } from '../compose/invocation.ts';
import { censusWorkerDeps, type CensusWorkerHandlerDeps } from './deps.ts';

export function createCensusWorkerHandler(deps: () => Promise<CensusWorkerHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<CensusShardOutcome> => {
    const request = parseEvent(censusShardRequestSchema, event, 'census-worker event');
    const ctx = parseContext(context);
    const d = await deps();
    if (request.cluster !== d.settings.clusterName)
      throw new Error(
        `census-worker event: cluster ${request.cluster} is not this deployment's (${d.settings.clusterName})`,
      );
    const keys = { requestId: ctx.awsRequestId, passId: `${request.runId}#${request.shard}` };
    return invocation(d.obs, keys, async () => {
      const out = await censusShard(d.loop, request);
      d.obs.metrics.gauge(LOOP_METRICS.censusShardUnreached, out.unreached);
      d.obs.logger.info('census shard judged', { ...out });
      return out;
    });
  };
}

export const handler = createCensusWorkerHandler(censusWorkerDeps);
