// The Lambda adapter's public surface: the client builder and the asynchronous Invoker.
export { createLambdaClient, type LambdaClientOptions } from './client.ts';
export { LambdaInvoker } from './invoker.ts';
