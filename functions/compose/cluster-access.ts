// Cluster access for deployed functions (docs/deploy.md, "Secrets"): the kubeconfig secret is read through
// Secrets Manager the first time the Kubernetes client needs credentials, once per container.
import { SecretKubeConfig, type KubeconfigOptions } from '../../shared/adapters/kube/secret-kubeconfig.ts';
import {
  createSecretsManagerClient,
  SecretsManagerSource,
  type SecretSource,
} from '../../shared/adapters/secrets/index.ts';
import type { Closer, Credentials } from './local.ts';

export interface KubeSecretSettings {
  readonly secretId: string;
  readonly region: string;
  /** A local Secrets Manager endpoint (tests). */
  readonly endpoint?: string;
}

/** The KubeConfig of a kubeconfig secret; `source` and `options` are for tests (a local server, plain http). */
export function secretKubeConfig(
  server: string,
  settings: KubeSecretSettings,
  local?: { credentials?: Credentials; closer?: Closer; source?: SecretSource; options?: KubeconfigOptions },
): SecretKubeConfig {
  let source = local?.source;
  if (!source) {
    const client = createSecretsManagerClient({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(local?.credentials ? { credentials: local.credentials } : {}),
    });
    local?.closer?.add(() => client.destroy());
    source = new SecretsManagerSource(client);
  }
  const from = source;
  return new SecretKubeConfig(
    server,
    () => from.read(settings.secretId),
    `kubeconfig secret ${settings.secretId}`,
    local?.options,
  );
}
