// The secrets adapter: AWS Secrets Manager reads (docs/deploy.md, "Secrets").
export { SecretReadError } from './errors.ts';
export {
  createSecretsManagerClient,
  SecretsManagerSource,
  type SecretSource,
  type SecretsManagerSettings,
} from './secrets-manager.ts';
