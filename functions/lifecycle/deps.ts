// lifecycle's dependencies, built once per container: the cluster, the store (for its lease) and the
// providers of both clouds (termination, garbage collection, Compute Engine preemptions).
import { lifecycleConfig, type LifecycleConfig } from '../../shared/config/lifecycle.ts';
import type { LifecycleDeps } from '../../shared/loop/lifecycle.ts';
import {
  buildCluster,
  buildEc2Provider,
  buildGceProvider,
  buildObservability,
  buildStateStore,
  buildTime,
  oncePerContainer,
  type InvocationObservability,
} from '../compose/index.ts';

export interface LifecycleHandlerDeps {
  readonly loop: LifecycleDeps & { readonly nonce: () => string };
  readonly settings: Pick<LifecycleConfig, 'clusterName' | 'leaseTtlMs' | 'lifecycle'>;
  readonly obs: InvocationObservability;
}

export function buildLifecycleDeps(env: Readonly<Record<string, string | undefined>>): LifecycleHandlerDeps {
  const config = lifecycleConfig(env);
  const time = buildTime();
  const obs = buildObservability(config.observability);
  const gce = config.gce ? buildGceProvider(config.gce, time.clock, obs.logger) : undefined;
  return {
    loop: {
      cluster: buildCluster(config.cluster, obs.logger),
      store: buildStateStore(config.store, time.clock),
      providers: { aws: buildEc2Provider(config.ec2, time.clock, obs.logger), ...(gce ? { gcp: gce } : {}) },
      ...(gce ? { preemptions: gce } : {}),
      ...time,
      logger: obs.logger,
      metrics: obs.metrics,
    },
    settings: config,
    obs,
  };
}

export const lifecycleDeps = oncePerContainer(() => buildLifecycleDeps(process.env));
