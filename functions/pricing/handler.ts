// pricing (scheduled every 12 hours): validates the EventBridge event, then reads both clouds' on-demand and
// spot prices and stores them as the cluster's price book (docs/functions/pricing.md). A cloud that cannot be
// priced fails the invocation and leaves the last good book in place.
import { pricing, type PricingResult } from '../../shared/loop/pricing.ts';
import { parseEvent, scheduledEventSchema } from '../compose/events.ts';
import { invocation, parseContext } from '../compose/invocation.ts';
import { pricingDeps, type PricingHandlerDeps } from './deps.ts';

export function createPricingHandler(deps: () => Promise<PricingHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<PricingResult> => {
    const scheduled = parseEvent(scheduledEventSchema, event, 'pricing event');
    const ctx = parseContext(context);
    const d = await deps();
    return invocation(d.obs, { requestId: ctx.awsRequestId, passId: scheduled.id }, () =>
      pricing(d.loop, { cluster: d.settings.clusterName }),
    );
  };
}

export const handler = createPricingHandler(pricingDeps);
