// The prices every pass reads: the stored price book (written by the pricing function every 12 hours)
// layered over the built-in catalog's prices. With no book, or one too old, or one that cannot be read,
// the catalog prices alone, and kraftsman_pricing_catalog_fallback_total{cloud,reason} counts it.
import { builtinPrice } from '../catalog/builtin.ts';
import type { InstanceTypeCatalog } from '../model/catalog.ts';
import type { Cloud } from '../model/labels.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { PriceBookHead, PriceLookup, PriceRow, PriceStore } from '../ports/price-store.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';

/**
 * A book older than this is not trusted: pricing runs every 12 hours, so 48 hours means four runs in a row
 * failed — by then spot prices have moved enough (they follow demand over hours to days) that the catalog's
 * stable figures are the safer guess, and the metric makes the outage visible. The DynamoDB adapter keeps a
 * book's chunks for a week, so a book this young is always whole.
 */
export const PRICE_BOOK_MAX_AGE_MS = 48 * 3_600_000;
/** How often a warm container re-reads the head item (one GetItem) to notice a new book. */
export const PRICE_BOOK_RECHECK_MS = 60_000;

export const FALLBACK_REASONS = ['no-book', 'too-old', 'unreadable', 'cloud-missing'] as const;
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

export interface StoredPricesDeps {
  readonly store: PriceStore;
  readonly clusterName: string;
  /** The prices of last resort: the built-in catalog unless a test names another. */
  readonly catalog?: InstanceTypeCatalog;
  readonly clock: Clock;
  readonly metrics: Metrics;
  readonly logger?: Logger;
  readonly maxAgeMs?: number;
  readonly recheckMs?: number;
}

type Held =
  | { readonly kind: 'book'; readonly head: PriceBookHead; readonly index: ReadonlyMap<string, number> }
  | { readonly kind: 'none'; readonly reason: Exclude<FallbackReason, 'cloud-missing'> };

const key = (cloud: Cloud, type: string, zone: string, ct: 'on-demand' | 'spot') =>
  `${cloud}\u0000${type}\u0000${zone}\u0000${ct}`;

function indexRows(rows: readonly PriceRow[]): Map<string, number> {
  return new Map(rows.map((r) => [key(r.cloud, r.instanceType, r.zone, r.capacityType), r.price]));
}

/** One cloud's rows of a price book (or of a price source's read) as a lookup, with no catalog beneath. */
export function rowsLookup(rows: readonly PriceRow[], cloud: Cloud): PriceLookup {
  const index = indexRows(rows);
  return {
    onDemand: (t, z) => index.get(key(cloud, t, z, 'on-demand')),
    spot: (t, z) => index.get(key(cloud, t, z, 'spot')),
  };
}

/** The catalog's prices of one cloud: the zone's offering, else the type's first of that capacity type. */
export function catalogLookup(catalog: InstanceTypeCatalog, cloud: Cloud): PriceLookup {
  const exact = new Map<string, number>();
  const anyZone = new Map<string, number>();
  for (const t of catalog.instanceTypes) {
    if (t.cloud !== cloud) continue;
    for (const o of t.offerings) {
      if (o.capacityType === 'reserved') continue;
      exact.set(key(cloud, t.name, o.zone, o.capacityType), o.price);
      if (!anyZone.has(`${t.name}\u0000${o.capacityType}`))
        anyZone.set(`${t.name}\u0000${o.capacityType}`, o.price);
    }
  }
  const find = (type: string, zone: string, ct: 'on-demand' | 'spot') =>
    exact.get(key(cloud, type, zone, ct)) ?? anyZone.get(`${type}\u0000${ct}`);
  return { onDemand: (t, z) => find(t, z, 'on-demand'), spot: (t, z) => find(t, z, 'spot') };
}

/** The built-in catalog's prices, one type expanded at a time (a pass never pays for the whole world's offerings). */
export function builtinLookup(cloud: Cloud): PriceLookup {
  const ofCloud = (type: string, zone: string, ct: 'on-demand' | 'spot'): number | undefined => {
    const gcpName = !type.includes('.');
    return (cloud === 'gcp') === gcpName ? builtinPrice(type, zone, ct) : undefined;
  };
  return { onDemand: (t, z) => ofCloud(t, z, 'on-demand'), spot: (t, z) => ofCloud(t, z, 'spot') };
}

export class StoredPrices {
  private held: Held | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private readonly catalogs = new Map<Cloud, PriceLookup>();
  constructor(private readonly deps: StoredPricesDeps) {}

  /** The version of the book in use (or why none is): a change means instance types must be priced afresh. */
  async version(): Promise<string> {
    const held = await this.current();
    return held.kind === 'book' ? held.head.version : `catalog:${held.reason}`;
  }

  /** One cloud's prices: the book's where it has them, the catalog's for the rest (or all, counted). */
  async lookup(cloud: Cloud): Promise<PriceLookup> {
    const held = await this.current();
    const catalog = this.catalogOf(cloud);
    const reason =
      held.kind === 'none' ? held.reason : held.head.clouds.includes(cloud) ? undefined : 'cloud-missing';
    if (reason || held.kind === 'none') {
      this.deps.metrics.count(LOOP_METRICS.pricingFallbackTotal, 1, { cloud, reason: reason ?? 'no-book' });
      return catalog;
    }
    const index = held.index;
    return {
      onDemand: (t, z) => index.get(key(cloud, t, z, 'on-demand')) ?? catalog.onDemand(t, z),
      spot: (t, z) => index.get(key(cloud, t, z, 'spot')) ?? catalog.spot(t, z),
    };
  }

  private catalogOf(cloud: Cloud): PriceLookup {
    let c = this.catalogs.get(cloud);
    if (!c) {
      c = this.deps.catalog ? catalogLookup(this.deps.catalog, cloud) : builtinLookup(cloud);
      this.catalogs.set(cloud, c);
    }
    return c;
  }

  private async current(): Promise<Held> {
    const now = this.deps.clock.now().getTime();
    const maxAge = this.deps.maxAgeMs ?? PRICE_BOOK_MAX_AGE_MS;
    if (this.held && now - this.checkedAt < (this.deps.recheckMs ?? PRICE_BOOK_RECHECK_MS))
      return this.held.kind === 'book' && now - this.held.head.readAt > maxAge
        ? { kind: 'none', reason: 'too-old' }
        : this.held;
    this.checkedAt = now;
    this.held = await this.load(now, maxAge);
    return this.held;
  }

  private async load(now: number, maxAge: number): Promise<Held> {
    const { store, clusterName } = this.deps;
    try {
      const head = await store.head(clusterName);
      if (!head) return { kind: 'none', reason: 'no-book' };
      if (now - head.readAt > maxAge) return { kind: 'none', reason: 'too-old' };
      if (this.held?.kind === 'book' && this.held.head.version === head.version) return this.held;
      const book = await store.read(clusterName, head);
      return { kind: 'book', head, index: indexRows(book.prices) };
    } catch (error: unknown) {
      // A pass still decides with catalog prices rather than not at all; the error and the metric say why.
      this.deps.logger?.error('the stored price book could not be read; pricing from the catalog', {
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      return { kind: 'none', reason: 'unreadable' };
    }
  }
}
