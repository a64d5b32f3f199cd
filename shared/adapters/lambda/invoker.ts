// The Invoker port over @aws-sdk/client-lambda: InvocationType Event (asynchronous; Lambda queues the event
// and retries a failed run twice), the function names or ARNs taken from the function's config.
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { InvokeError, type InvokableFunction, type Invoker } from '../../ports/invoker.ts';

/** 256 KB is Lambda's limit for an asynchronous payload. */
const MAX_ASYNC_PAYLOAD = 256 * 1024;

export class LambdaInvoker implements Invoker {
  constructor(
    private readonly client: LambdaClient,
    private readonly functions: Readonly<Partial<Record<InvokableFunction, string>>>,
  ) {}

  async invoke(target: InvokableFunction, payload: unknown): Promise<void> {
    const name = this.functions[target];
    if (!name) throw new InvokeError(target, 'no function name configured for it');
    const body = Buffer.from(JSON.stringify(payload));
    if (body.length > MAX_ASYNC_PAYLOAD)
      throw new InvokeError(target, `payload is ${body.length} bytes, above the 256 KB async limit`);
    let status: number | undefined;
    try {
      const out = await this.client.send(
        new InvokeCommand({ FunctionName: name, InvocationType: 'Event', Payload: body }),
      );
      status = out.StatusCode;
    } catch (err: unknown) {
      throw new InvokeError(target, err instanceof Error ? `${err.name}: ${err.message}` : String(err), {
        cause: err,
      });
    }
    // An accepted Event invocation answers 202; anything else means the event was not queued.
    if (status !== 202) throw new InvokeError(target, `Lambda answered status ${String(status)}, not 202`);
  }
}
