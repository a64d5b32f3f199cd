// Builds the asynchronous Invoker over Lambda: target names come from the function's config.
import { createLambdaClient, LambdaInvoker } from '../../shared/adapters/lambda/index.ts';
import type { InvokableFunction } from '../../shared/ports/invoker.ts';
import type { Closer, Credentials } from './local.ts';

export interface InvokerSettings {
  readonly region: string;
  /** Function name or ARN of each target this function invokes. */
  readonly functions: Readonly<Partial<Record<InvokableFunction, string>>>;
  readonly endpoint?: string;
}

export function buildInvoker(
  settings: InvokerSettings,
  credentials?: Credentials,
  closer?: Closer,
): LambdaInvoker {
  const client = createLambdaClient({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(credentials ? { credentials } : {}),
  });
  closer?.add(() => client.destroy());
  return new LambdaInvoker(client, settings.functions);
}
