// Builds the @kubernetes/client-node clients once per container: typed APIs for core kinds, the custom
// objects API for CRDs; catch-up watches are opened on the KubeConfig itself (watch-stream.ts). The composition
// root passes a KubeConfig in. Every typed call goes through the bounded HttpLibrary (http.ts): a time limit and
// a size limit per request.
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PolicyV1Api,
  ServerConfiguration,
  StorageV1Api,
  createConfiguration,
} from '@kubernetes/client-node';
import { DEFAULT_LIMITS, boundedHttpLibrary, type RequestLimits } from './http.ts';

export interface KubeClients {
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly policy: PolicyV1Api;
  readonly storage: StorageV1Api;
  readonly custom: CustomObjectsApi;
  readonly config: KubeConfig;
  /** Time and size limits of every request (DEFAULT_LIMITS when absent). */
  readonly limits?: RequestLimits;
}

export function makeClients(kc: KubeConfig, limits: RequestLimits = DEFAULT_LIMITS): KubeClients {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the KubeConfig has no current cluster');
  // What kc.makeApiClient builds, plus our HttpLibrary: the KubeConfig still applies auth and TLS.
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(server, {}),
    authMethods: { default: kc },
    httpApi: boundedHttpLibrary(limits),
  });
  return {
    core: new CoreV1Api(configuration),
    apps: new AppsV1Api(configuration),
    policy: new PolicyV1Api(configuration),
    storage: new StorageV1Api(configuration),
    custom: new CustomObjectsApi(configuration),
    config: kc,
    limits,
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
