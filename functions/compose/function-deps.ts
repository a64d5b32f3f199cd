// What every cluster function's deps.ts builds the same way (admit, census, consolidate, launch-*, lifecycle,
// orchestrate, provision): time, logs and metrics, the cluster and the state store, then its own parts. Cloud
// clients stay with the function that uses them (infra/iam/calls.yml grants each role only its own calls).
import type { DynamoDbStateStore } from '../../shared/adapters/dynamodb/index.ts';
import type { KubeCluster } from '../../shared/adapters/kube/index.ts';
import type { DeploymentSource } from '../../shared/ports/cloud-provider/index.ts';
import { buildCluster, type ClusterSettings } from './cluster.ts';
import { deploymentSource } from './deployment.ts';
import { buildObservability, type Observability, type ObservabilitySettings } from './observability.ts';
import { buildStateStore, type StateStoreSettings } from './state-store.ts';
import { buildTime, type Time } from './time.ts';

/** What every cluster function's config carries (shared/config/function-env.ts commonSettings). */
export interface FunctionConfig {
  readonly observability: ObservabilitySettings;
  readonly cluster: ClusterSettings;
  readonly store: StateStoreSettings;
}

/** The parts every cluster function holds, built once per container. */
export interface FunctionBase {
  readonly time: Time;
  readonly obs: Observability;
  readonly cluster: KubeCluster;
  readonly store: DynamoDbStateStore;
}

/** A handler's deps: its use case's ports, its settings (the parsed config) and its observability. */
export interface ComposedDeps<C, L> {
  readonly loop: L;
  readonly settings: C;
  readonly obs: Observability;
}

export function buildFunctionBase(config: FunctionConfig): FunctionBase {
  const time = buildTime();
  const obs = buildObservability(config.observability);
  return {
    time,
    obs,
    cluster: buildCluster(config.cluster, obs.logger),
    store: buildStateStore(config.store, time.clock),
  };
}

/** Builds the base from `config`, then the use case's ports from it: `loop` says only what is the function's own. */
export function composeDeps<C extends FunctionConfig, L>(
  config: C,
  loop: (base: FunctionBase) => L,
): ComposedDeps<C, L> {
  const base = buildFunctionBase(config);
  return { loop: loop(base), settings: config, obs: base.obs };
}

/** The ports a use case under a lease takes (LeaseDeps, with the cluster and metrics): census, lifecycle, orchestrate, provision. */
export function leasedPorts(base: FunctionBase) {
  return {
    cluster: base.cluster,
    store: base.store,
    ...base.time,
    logger: base.obs.logger,
    metrics: base.obs.metrics,
  };
}

/**
 * This deployment's id, read from the base's store once per container (docs/mechanisms/identity.md#instances): only
 * the functions that launch or terminate instances take it (their roles read and, first of all, write the item).
 */
export function baseDeployment(
  base: FunctionBase,
  config: { readonly clusterName: string },
): DeploymentSource {
  return deploymentSource(base.store, config.clusterName, base.time.nonce);
}
