// The end-to-end harness: emulators + DynamoDB Local, adapters built through functions/compose, Lambda events.
export { startHarness, fakeGoogleAuth, type E2eHarness, type E2eOptions } from './harness.ts';
export * from './fixtures.ts';
export { lambdaContext, scheduledEvent, sqsBatch } from './lambda-events.ts';
export { registerEc2Node, registerGceNode } from './nodes.ts';
export {
  TEST_LIFECYCLE,
  TEST_WATCH,
  launchDeps,
  launchHandler,
  lifecycleHandler,
  provisionHandler,
  wireLaunchers,
} from './functions.ts';
