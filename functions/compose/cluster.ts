// Builds the Kubernetes Cluster adapter from the API server address and either the kubeconfig secret
// (deployed: the cluster's CA and a token or client certificate, cluster-access.ts) or a bearer token (tests):
// the functions run outside the cluster, so there is no in-cluster service account to fall back on.
import {
  KubeCluster,
  kubeConfigFor,
  makeClients,
  type KubeClusterOptions,
} from '../../shared/adapters/kube/index.ts';
import type { Logger } from '../../shared/ports/logger.ts';
import { secretKubeConfig, type KubeSecretSettings } from './cluster-access.ts';

export type ClusterSettings = {
  readonly server: string;
  readonly pageSize?: number;
} & ({ readonly token: string } | { readonly secret: KubeSecretSettings });

/** The KubeConfig of the adapter: from the secret when deployed, from a token against a local server. */
export function kubeConfigOf(settings: ClusterSettings): ReturnType<typeof kubeConfigFor> {
  if ('secret' in settings) return secretKubeConfig(settings.server, settings.secret);
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
