// Builds the Powertools logger and EMF metrics of one function; the handler flushes metrics per invocation.
import {
  EmfMetrics,
  jsonLogger,
  type InvocationLogger,
  type LogLevel,
} from '../../shared/observability/index.ts';

export interface ObservabilitySettings {
  /** The function's name: Powertools' service. */
  readonly service: string;
  readonly clusterName: string;
  readonly namespace: string;
  readonly logLevel: LogLevel;
}

export interface Observability {
  /** The function's name (Powertools' service; the `controller` of cloud provider metrics). */
  readonly service: string;
  readonly logger: InvocationLogger;
  readonly metrics: EmfMetrics;
}

export function buildObservability(settings: ObservabilitySettings): Observability {
  return {
    service: settings.service,
    logger: jsonLogger({
      serviceName: settings.service,
      level: settings.logLevel,
      keys: { cluster: settings.clusterName },
    }),
    metrics: new EmfMetrics({
      namespace: settings.namespace,
      serviceName: settings.service,
      defaultDimensions: { cluster: settings.clusterName },
    }),
  };
}
