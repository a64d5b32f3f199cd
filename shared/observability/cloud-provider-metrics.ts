// Karpenter's cloud provider metrics (pkg/cloudprovider/metrics: a decorator around every CloudProvider call)
// for kraftsman's providers: karpenter_cloudprovider_duration_seconds and karpenter_cloudprovider_errors_total,
// labelled with the calling function (`controller`), the method in Karpenter's words and the cloud
// (docs/observability.md "Metrics"). The provider keeps its own type: the decorator forwards everything else.
import type { Clock } from '../ports/clock.ts';
import type { CloudProvider } from '../ports/cloud-provider/index.ts';
import type { Metrics } from '../ports/metrics.ts';

export const CLOUD_PROVIDER_METRICS = {
  /** histogram {controller, method, provider}, seconds. */
  durationSeconds: 'karpenter_cloudprovider_duration_seconds',
  /** counter {controller, method, provider, error}: the error's type. */
  errorsTotal: 'karpenter_cloudprovider_errors_total',
} as const;

/** The port's methods and Karpenter's name for each (its CloudProvider interface). */
const METHODS: Readonly<Record<string, string>> = {
  create: 'Create',
  createGang: 'CreateGang',
  delete: 'Delete',
  get: 'Get',
  list: 'List',
  instanceTypes: 'GetInstanceTypes',
  isDrifted: 'IsDrifted',
};

const errorType = (e: unknown): string =>
  e instanceof Error ? (e.name !== 'Error' ? e.name : e.constructor.name) : typeof e;

/** `cloud` labels a provider that does not carry its own (an instance-type source). */
export function withCloudProviderMetrics<T extends object>(
  provider: T,
  metrics: Metrics,
  clock: Clock,
  controller: string,
  cloud: string = String((provider as Partial<Pick<CloudProvider, 'cloud'>>).cloud ?? 'unknown'),
): T {
  return new Proxy(provider, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = typeof prop === 'string' ? METHODS[prop] : undefined;
      const bound = (value as (...a: unknown[]) => unknown).bind(target);
      if (!method) return bound;
      return async (...args: unknown[]) => {
        const labels = { controller, method, provider: cloud };
        const start = clock.now().getTime();
        try {
          return await bound(...args);
        } catch (e) {
          metrics.count(CLOUD_PROVIDER_METRICS.errorsTotal, 1, { ...labels, error: errorType(e) });
          throw e;
        } finally {
          metrics.observe(
            CLOUD_PROVIDER_METRICS.durationSeconds,
            (clock.now().getTime() - start) / 1000,
            labels,
          );
        }
      };
    },
  });
}
