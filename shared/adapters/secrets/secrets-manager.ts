// Reads a secret's string from AWS Secrets Manager (GetSecretValue), once per container. The SDK retries
// throttling and transient failures itself (standard mode, 3 attempts): a cold start reads one secret once.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretReadError } from './errors.ts';

export interface SecretsManagerSettings {
  readonly region: string;
  /** A local endpoint (tests); AWS's own otherwise. */
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

export interface SecretSource {
  /** The secret's SecretString; a binary or empty secret is an error naming the secret. */
  read(secretId: string): Promise<string>;
}

export function createSecretsManagerClient(settings: SecretsManagerSettings): SecretsManagerClient {
  return new SecretsManagerClient({
    region: settings.region,
    maxAttempts: 3,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  });
}

export class SecretsManagerSource implements SecretSource {
  constructor(private readonly client: SecretsManagerClient) {}

  async read(secretId: string): Promise<string> {
    let out;
    try {
      out = await this.client.send(new GetSecretValueCommand({ SecretId: secretId }));
    } catch (err: unknown) {
      const code = err instanceof Error ? err.name : 'Error';
      throw new SecretReadError(`secret ${secretId}: GetSecretValue failed (${code})`, secretId, {
        cause: err,
      });
    }
    if (!out.SecretString)
      throw new SecretReadError(
        `secret ${secretId} has no SecretString (store the kubeconfig as text)`,
        secretId,
      );
    return out.SecretString;
  }
}
