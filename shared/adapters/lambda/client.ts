// The Lambda SDK client, built once per container with explicit retry and timeout settings.
import { LambdaClient } from '@aws-sdk/client-lambda';

export interface LambdaClientOptions {
  readonly region: string;
  /** http://127.0.0.1:PORT for a local endpoint; omitted in AWS. */
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** An Event invoke is one small request: three SDK attempts cover throttling without our own loop. */
export function createLambdaClient(options: LambdaClientOptions): LambdaClient {
  return new LambdaClient({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    maxAttempts: 3,
    requestHandler: { requestTimeout: 10_000, connectionTimeout: 3_000, throwOnRequestTimeout: true },
  });
}
