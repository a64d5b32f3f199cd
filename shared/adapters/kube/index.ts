// The Kubernetes adapter's public surface: build clients from a KubeConfig, then a KubeCluster.
export { KubeCluster, type KubeClusterOptions } from './cluster.ts';
export { kubeConfigFor, makeClients, type KubeClients } from './client.ts';
export { INVALID_POLICIES, type InvalidPolicy } from './validate.ts';
export type { SnapshotOptions } from './snapshot.ts';
