// orchestrate's dependencies, built once per container: the cluster, the store (commands, its lease, the
// negative-cache epoch), and the providers of both clouds that terminate a command's instances.
import { orchestrateConfig, type OrchestrateConfig } from '../../shared/config/orchestrate.ts';
import type { OrchestrateDeps } from '../../shared/loop/orchestrate.ts';
import type { CloudProvider } from '../../shared/ports/cloud-provider/index.ts';
import {
  baseDeployment,
  buildProviders,
  composeDeps,
  leasedPorts,
  oncePerContainer,
  type InvocationObservability,
} from '../compose/index.ts';

export interface OrchestrateHandlerDeps {
  readonly loop: OrchestrateDeps & { readonly nonce: () => string };
  readonly settings: Pick<
    OrchestrateConfig,
    'clusterName' | 'leaseTtlMs' | 'replacementTimeoutMs' | 'admissionGraceMs' | 'replacementBackoffMs'
  >;
  readonly obs: InvocationObservability;
}

export function buildOrchestrateDeps(
  env: Readonly<Record<string, string | undefined>>,
): OrchestrateHandlerDeps {
  const config = orchestrateConfig(env);
  return composeDeps(config, (base) => {
    const providers: CloudProvider[] = Object.values(
      buildProviders(config, base.time.clock, base.obs, baseDeployment(base, config)),
    );
    return { ...leasedPorts(base), providers: new Map(providers.map((p) => [p.cloud, p])) };
  });
}

export const orchestrateDeps = oncePerContainer(() => buildOrchestrateDeps(process.env));
