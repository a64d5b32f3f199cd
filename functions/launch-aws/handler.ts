// launch-aws (invoked asynchronously by provision and admit): one claim or one gang onto EC2 CreateFleet.
import { createLaunchHandler } from '../compose/launch-handler.ts';
import { launchAwsDeps } from './deps.ts';

export const handler = createLaunchHandler('launch-aws', launchAwsDeps);
