// Builds the Kubernetes Cluster adapter from the API server address, a bearer token and the CA bundle: the
// functions run outside the cluster, so there is no in-cluster service account to fall back on.
import {
  KubeCluster,
  kubeConfigFor,
  makeClients,
  type KubeClusterOptions,
} from '../../shared/adapters/kube/index.ts';
import type { Logger } from '../../shared/ports/logger.ts';

export interface ClusterSettings {
  readonly server: string;
  readonly token: string;
  readonly pageSize?: number;
}

/** The KubeConfig of the adapter: https verifies against the system roots (a private CA is not supported yet). */
export function kubeConfigOf(settings: ClusterSettings): ReturnType<typeof kubeConfigFor> {
  return kubeConfigFor(settings.server, settings.token);
}

/** One KubeCluster per container: its snapshot reader keeps resourceVersions for the warm catch-up. */
export function buildCluster(settings: ClusterSettings, logger: Logger): KubeCluster {
  const options: KubeClusterOptions = {
    logger,
    invalid: 'skip',
    ...(settings.pageSize ? { pageSize: settings.pageSize } : {}),
  };
  return new KubeCluster(makeClients(kubeConfigOf(settings)), options);
}
