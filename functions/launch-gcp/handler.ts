// launch-gcp (invoked asynchronously by provision and admit): one claim or one gang onto Compute Engine
// insert / bulkInsert.
import { createLaunchHandler } from '../compose/launch-handler.ts';
import { launchGcpDeps } from './deps.ts';

export const handler = createLaunchHandler('launch-gcp', launchGcpDeps);
