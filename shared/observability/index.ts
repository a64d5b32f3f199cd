// Observability: the Logger and Metrics ports as Powertools JSON logs and EMF metrics (Lambda), flushed by
// the handler at the end of every invocation.
export { EmfMetrics, type EmfMetricsOptions, type EmfSink } from './emf-metrics.ts';
export {
  jsonLogger,
  LOG_LEVELS,
  type InvocationLogger,
  type JsonLoggerOptions,
  type LogLevel,
} from './json-logger.ts';
export { CLOUD_PROVIDER_METRICS, withCloudProviderMetrics } from './cloud-provider-metrics.ts';
