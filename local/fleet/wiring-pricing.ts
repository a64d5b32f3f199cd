// The pricing function of a local fleet (every twelve simulated hours, and once before minute 0 as a deploy
// runs it, so the first passes read a stored book), built as functions/pricing/deps.ts builds it but pointed at the
// EC2 and GCE emulators' price APIs and the local DynamoDB, on the fleet clock.
import type { Closer } from '../../functions/compose/index.ts';
import { buildPriceStore } from '../../functions/compose/index.ts';
import { buildEc2PriceSource, buildGcePriceSourceFrom } from '../../functions/compose/price-sources.ts';
import type { PricingHandlerDeps } from '../../functions/pricing/deps.ts';
import { createPricingHandler } from '../../functions/pricing/handler.ts';
import { pricingConfig } from '../../shared/config/pricing.ts';
import { LOCAL_CREDENTIALS } from '../dynamodb/credentials.ts';
import { localGoogleAuth } from '../gce/auth.ts';
import type { FleetClock } from './clock.ts';
import type { FleetEnvironment } from './environment.ts';
import type { FleetFunction } from './registry.ts';
import type { Adapters } from './wiring.ts';

export function pricingFunction(
  vars: Readonly<Record<string, string>>,
  env: FleetEnvironment,
  adapters: (fn: string) => Adapters,
  clock: FleetClock,
  closer: Closer,
): FleetFunction {
  const a = adapters('pricing');
  const config = pricingConfig(vars);
  const gce = config.gce
    ? [
        buildGcePriceSourceFrom(
          { ...config.gce, endpoint: { host: '127.0.0.1', port: env.gce.port } },
          localGoogleAuth(),
          closer,
        ),
      ]
    : [];
  const deps: PricingHandlerDeps = {
    loop: {
      sources: [
        buildEc2PriceSource({ ...config.ec2, endpoint: env.ec2.endpoint }, clock, LOCAL_CREDENTIALS, closer),
        ...gce,
      ],
      store: buildPriceStore(config.store, LOCAL_CREDENTIALS, closer),
      clock,
      logger: a.logger,
      metrics: a.obs.metrics,
    },
    settings: config,
    obs: a.obs,
  };
  return {
    name: 'pricing',
    everyMinutes: 12 * 60,
    // The deployed timeout (serverless.yml).
    timeoutMs: 300_000,
    handler: createPricingHandler(() => Promise.resolve(deps)),
  };
}
