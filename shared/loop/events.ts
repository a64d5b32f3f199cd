// Publishing Kubernetes events from a use case: best effort by contract (docs/observability.md, "Events") — a
// failed write is logged and counted, never thrown, so an event can never fail the pass that reports it; one
// call writes a bounded number.
import type { Cluster, ClusterEvent } from '../ports/cluster/index.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import { inParallel } from './parallel.ts';

/** counter {reason}: events the API server refused or never answered (the pass went on). */
export const EVENT_WRITE_FAILURES = 'kraftsman_event_write_failures_total';
/** counter {reason}: events over one call's bound, not written (the next pass publishes them again). */
export const EVENTS_DROPPED = 'kraftsman_events_dropped_total';
/** Events written at once: a pass with a thousand unschedulable pods must not open a thousand requests. */
const IN_FLIGHT = 8;
/**
 * Events one call writes at most: a cold container over a large fleet would otherwise spend its pass on them (as
 * client-go's spam filter bounds Karpenter's). Dropped ones are counted; the next pass publishes them again.
 */
export const MAX_EVENTS_PER_CALL = 200;

export interface EventDeps {
  readonly cluster: Pick<Cluster, 'recordEvent'>;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

export async function publishEvents(deps: EventDeps, all: readonly ClusterEvent[]): Promise<void> {
  const events = all.slice(0, MAX_EVENTS_PER_CALL);
  for (const e of all.slice(MAX_EVENTS_PER_CALL)) deps.metrics.count(EVENTS_DROPPED, 1, { reason: e.reason });
  await inParallel(events, IN_FLIGHT, async (e) => {
    try {
      await deps.cluster.recordEvent(e);
    } catch (error: unknown) {
      deps.metrics.count(EVENT_WRITE_FAILURES, 1, { reason: e.reason });
      deps.logger.warn('could not record an event', {
        object: `${e.involved.kind}/${e.involved.name}`,
        reason: e.reason,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  });
}
