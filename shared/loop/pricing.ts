// The pricing use case (every 12 hours): read on-demand and spot prices from every cloud's price source,
// then store them as one complete book. A source that fails (or prices nothing) fails the run and nothing
// is written, so passes keep the last good book (docs/functions/pricing.md).
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import {
  StalePriceBookError,
  type PriceRow,
  type PriceSource,
  type PriceStore,
} from '../ports/price-store.ts';
import type { Cloud } from '../model/labels.ts';

export interface PricingDeps {
  readonly sources: readonly PriceSource[];
  readonly store: PriceStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

export type PricingResult =
  | {
      readonly outcome: 'stored';
      readonly version: string;
      readonly readAt: string;
      readonly rows: Readonly<Partial<Record<Cloud, number>>>;
    }
  /** A newer book was stored meanwhile (an overlapping run): this one was not made the latest. */
  | { readonly outcome: 'superseded'; readonly current: string };

/** One or more clouds could not be priced: every failure is named; the stored book was left alone. */
export class PricingError extends Error {
  override readonly name = 'PricingError';
  constructor(
    readonly failures: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`pricing failed, the last stored book is kept: ${failures.join('; ')}`, options);
  }
}

export async function pricing(
  deps: PricingDeps,
  request: { readonly cluster: string },
): Promise<PricingResult> {
  const readAt = deps.clock.now().getTime();
  const settled = await Promise.allSettled(deps.sources.map((source) => source.prices()));
  const failures: string[] = [];
  let cause: unknown;
  const prices: PriceRow[] = [];
  const rows: Partial<Record<Cloud, number>> = {};
  settled.forEach((r, i) => {
    const cloud = deps.sources[i]!.cloud;
    if (r.status === 'rejected') {
      cause ??= r.reason;
      failures.push(r.reason instanceof Error ? r.reason.message : `${cloud}: ${String(r.reason)}`);
    } else if (r.value.length === 0) failures.push(`${cloud} priced no offering`);
    else {
      prices.push(...r.value);
      rows[cloud] = r.value.length;
    }
  });
  if (failures.length > 0) throw new PricingError(failures, { cause });
  try {
    const head = await deps.store.write(request.cluster, {
      readAt,
      clouds: deps.sources.map((s) => s.cloud),
      prices,
    });
    for (const [cloud, n] of Object.entries(rows)) deps.metrics.gauge(PRICING_ROWS, n, { cloud });
    deps.logger.info('price book stored', { version: head.version, rows });
    return { outcome: 'stored', version: head.version, readAt: new Date(readAt).toISOString(), rows };
  } catch (error: unknown) {
    if (error instanceof StalePriceBookError)
      return { outcome: 'superseded', current: error.current.version };
    throw error;
  }
}

/** gauge {cloud}: offerings (type × zone × capacity type) the latest run priced. */
export const PRICING_ROWS = 'kraftsman_pricing_offerings_priced';
