// Builds the @kubernetes/client-node clients once per container: typed APIs for core kinds, the custom
// objects API for CRDs, and Watch for catch-up. The composition root passes a KubeConfig in.
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PolicyV1Api,
  StorageV1Api,
  Watch,
} from '@kubernetes/client-node';

export interface KubeClients {
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly policy: PolicyV1Api;
  readonly storage: StorageV1Api;
  readonly custom: CustomObjectsApi;
  readonly watch: Watch;
  readonly config: KubeConfig;
}

export function makeClients(kc: KubeConfig): KubeClients {
  return {
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    policy: kc.makeApiClient(PolicyV1Api),
    storage: kc.makeApiClient(StorageV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    watch: new Watch(kc),
    config: kc,
  };
}

/** A KubeConfig for a server URL and bearer token (plain http needs skipTLSVerify in client-node 1.4). */
export function kubeConfigFor(server: string, token: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'cluster', server, skipTLSVerify: server.startsWith('http://') }],
    users: [{ name: 'kraftsman', token }],
    contexts: [{ name: 'kraftsman', cluster: 'cluster', user: 'kraftsman' }],
    currentContext: 'kraftsman',
  });
  return kc;
}
