// lifecycle's dependencies, built once per container: the cluster, the store (for its lease) and the
// providers of both clouds (termination, garbage collection, Compute Engine preemptions).
import { lifecycleConfig, type LifecycleConfig } from '../../shared/config/lifecycle.ts';
import type { LifecycleDeps } from '../../shared/loop/lifecycle.ts';
import {
  baseDeployment,
  buildProviders,
  composeDeps,
  leasedPorts,
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
  return composeDeps(config, (base) => {
    const providers = buildProviders(config, base.time.clock, base.obs, baseDeployment(base, config));
    // Compute Engine reports preemptions as zonal operations, which its provider lists.
    // The EC2 provider's instance profiles (node classes with a role): garbage-collected here.
    const instanceProfiles = providers.aws.instanceProfiles;
    return {
      ...leasedPorts(base),
      providers,
      ...(providers.gcp ? { preemptions: providers.gcp } : {}),
      ...(instanceProfiles ? { instanceProfiles } : {}),
    };
  });
}

export const lifecycleDeps = oncePerContainer(() => buildLifecycleDeps(process.env));
