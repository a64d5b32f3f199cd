// Builders the handlers share (docs/architecture.md): each builds one adapter from parsed settings.
export { oncePerContainer } from './container.ts';
export { buildCluster, kubeConfigOf, type ClusterSettings } from './cluster.ts';
export { buildEc2Provider, type Ec2Settings } from './ec2.ts';
// Not buildGceProvider: a re-export here would put the Google client in the static import graph of every
// function that imports this barrel, defeating lazy-gce.ts's chunk (import it from './gce.ts').
export type { GceSettings } from './gce-settings.ts';
export { buildInvoker, type InvokerSettings } from './invoker.ts';
export {
  invocation,
  parseContext,
  remainingMs,
  InvalidContextError,
  lambdaContextSchema,
  type FlushableMetrics,
  type InvocationLogger,
  type InvocationObservability,
  type LambdaContext,
} from './invocation.ts';
export { Closer, type Credentials } from './local.ts';
export { buildObservability, type Observability, type ObservabilitySettings } from './observability.ts';
export { buildStateStore, type StateStoreSettings } from './state-store.ts';
export {
  buildInstanceTypes,
  passInstanceTypes,
  type InstanceTypesArgs,
  type PassTypesConfig,
  type PassTypesParts,
} from './instance-types.ts';
export { buildPriceStore } from './price-store.ts';
export { buildTime, type Time } from './time.ts';
export { deploymentSource } from './deployment.ts';
export {
  parseEvent,
  InvalidEventError,
  scheduledEventSchema,
  sqsEventSchema,
  sqsRecordSchema,
  type ScheduledEvent,
  type SqsBatchResponse,
  type SqsEvent,
  type SqsRecord,
} from './events.ts';
export { composeLaunchDeps, createLaunchHandler, type LaunchHandlerDeps } from './launch-handler.ts';
export {
  baseDeployment,
  buildFunctionBase,
  composeDeps,
  leasedPorts,
  type ComposedDeps,
  type FunctionBase,
  type FunctionConfig,
} from './function-deps.ts';
export { buildProviders, type TerminatingProviders } from './providers.ts';
