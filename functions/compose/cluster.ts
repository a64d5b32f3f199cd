// Builds the Kubernetes Cluster adapter from the API server address, a bearer token and the CA bundle: the
// functions run outside the cluster, so there is no in-cluster service account to fall back on.
import { KubeConfig } from '@kubernetes/client-node';
import { KubeCluster, makeClients, type KubeClusterOptions } from '../../shared/adapters/kube/index.ts';
import type { Logger } from '../../shared/ports/logger.ts';

export interface ClusterSettings {
  readonly server: string;
  readonly token: string;
  /** Base64 PEM of the API server's CA; omitted only for plain http (the local emulator). */
  readonly caData?: string;
  readonly pageSize?: number;
}

export function kubeConfigOf(settings: ClusterSettings): KubeConfig {
  const kc = new KubeConfig();
  const plainHttp = settings.server.startsWith('http://');
  kc.loadFromOptions({
    clusters: [
      {
        name: 'cluster',
        server: settings.server,
        // client-node 1.4 needs skipTLSVerify for plain http; https always verifies against caData.
        skipTLSVerify: plainHttp,
        ...(settings.caData ? { caData: settings.caData } : {}),
      },
    ],
    users: [{ name: 'kraftsman', token: settings.token }],
    contexts: [{ name: 'kraftsman', cluster: 'cluster', user: 'kraftsman' }],
    currentContext: 'kraftsman',
  });
  return kc;
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
