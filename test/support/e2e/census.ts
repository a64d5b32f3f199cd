// The census function as the end-to-end tests run it: dependencies built the way functions/census/deps.ts
// builds them, against the harness's servers, with real EMF metrics whose documents are captured (so tests
// read the metric values CloudWatch would receive) and, for truncation, a clock the test can make tick.
import { randomUUID } from 'node:crypto';
import type { CensusHandlerDeps } from '../../../functions/census/deps.ts';
import { createCensusHandler } from '../../../functions/census/handler.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { InstanceTypeCache } from '../../../shared/loop/instance-types.ts';
import { poolInstanceTypes } from '../../../shared/loop/pool-instance-types.ts';
import { EmfMetrics } from '../../../shared/observability/index.ts';
import type { Clock } from '../../../shared/ports/clock.ts';
import type { CensusFanOut } from '../../../shared/loop/census-fanout.ts';
import type { E2eHarness } from './harness.ts';

/** One EMF document: dimensions and metric values as top-level keys, as CloudWatch Logs receives it. */
export type EmfDocument = Record<string, unknown>;

export interface CensusContainer {
  readonly handler: ReturnType<typeof createCensusHandler>;
  /** Every EMF document the container flushed, oldest first. */
  readonly emf: EmfDocument[];
}

export interface CensusSettings {
  readonly sweepBudgetMs?: number;
  /** The loop's clock (the sweep's stopwatch); the store keeps the harness's. */
  readonly clock?: Clock;
  /** Fan the census out to census workers (docs/mechanisms/census.md#fan-out). */
  readonly fanOut?: CensusFanOut;
}

/** One census container (its own clients and instance-type cache), publishing EMF into `emf`. */
export function censusContainer(h: E2eHarness, s: CensusSettings = {}): CensusContainer {
  const emf: EmfDocument[] = [];
  const metrics = new EmfMetrics({
    namespace: 'kraftsman',
    serviceName: 'census',
    defaultDimensions: { cluster: h.clusterName },
    sink: (line) => void emf.push(JSON.parse(line) as EmfDocument),
  });
  const clock = s.clock ?? h.clock;
  const cache = new InstanceTypeCache({ aws: h.ec2Provider(), gcp: h.gceProvider() }, clock, 24 * 3_600_000);
  const sweepBudgetMs = s.sweepBudgetMs ?? 5 * 60_000;
  const deps: CensusHandlerDeps = {
    loop: {
      cluster: h.cluster(),
      store: h.store(),
      instanceTypes: (objects) => poolInstanceTypes(cache, objects),
      clock,
      timer: h.timer,
      nonce: () => randomUUID(),
      logger: h.logger,
      metrics,
      ...(s.fanOut ? { fanOut: s.fanOut } : {}),
    },
    settings: {
      clusterName: h.clusterName,
      options: passOptions({}),
      sweepBudgetMs,
      leaseTtlMs: sweepBudgetMs + 2 * 60_000,
    },
    obs: { logger: h.logger, metrics },
  };
  return { handler: createCensusHandler(() => Promise.resolve(deps)), emf };
}

/** The value of `metric` in the document whose dimensions are exactly `dims` (plus the defaults). */
export function emfValue(
  docs: readonly EmfDocument[],
  metric: string,
  dims: Readonly<Record<string, string>> = {},
): unknown {
  const keysOf = (d: EmfDocument) => {
    const aws = d._aws as { CloudWatchMetrics: { Dimensions: string[][] }[] };
    return (aws.CloudWatchMetrics[0]?.Dimensions[0] ?? []).filter((k) => k !== 'cluster' && k !== 'service');
  };
  const found = docs.filter(
    (d) =>
      metric in d &&
      keysOf(d).length === Object.keys(dims).length &&
      Object.entries(dims).every(([k, v]) => d[k] === v),
  );
  if (found.length !== 1)
    throw new Error(`${found.length} EMF documents hold ${metric} ${JSON.stringify(dims)}`);
  return found[0]?.[metric];
}

/** A clock frozen at `base`'s now that moves one millisecond per read: a budget of N ms is N reads. */
export function tickingClock(base: Clock): Clock {
  const start = base.now().getTime();
  let ticks = 0;
  return { now: () => new Date(start + ++ticks) };
}
