// Every function refuses a bad event and a bad configuration with a message naming the field, through its
// handler: one table per function. Event rows never reach the dependencies (validation comes first); config
// rows build them the way deps.ts does, from an environment, and fail at the one parse of a cold start.
import { createLaunchHandler } from '../../../functions/compose/index.ts';
import { buildLaunchAwsDeps } from '../../../functions/launch-aws/deps.ts';
import { buildLaunchGcpDeps } from '../../../functions/launch-gcp/deps.ts';
import { createLifecycleHandler } from '../../../functions/lifecycle/handler.ts';
import { buildLifecycleDeps } from '../../../functions/lifecycle/deps.ts';
import { createProvisionHandler } from '../../../functions/provision/handler.ts';
import { buildProvisionDeps } from '../../../functions/provision/deps.ts';
import { OffsetClock } from '../../fakes/offset-clock.ts';
import { ec2NodeClass, gceNodeClass, scheduledEvent, sqsBatch } from '../../support/e2e/index.ts';
import {
  COMMON_ENV as COMMON,
  validationTable,
  type Env,
  type Row,
} from '../../support/e2e/validation-table.ts';

const GCP: Env = {
  KRAFTSMAN_GCP_PROJECT: 'ml-prod',
  KRAFTSMAN_GCP_REGION: 'us-central1',
  KRAFTSMAN_GCP_ZONES: 'us-central1-a',
  KRAFTSMAN_GCP_CREDENTIALS: '{"type":"external_account"}',
};
const LAUNCHERS: Env = {
  KRAFTSMAN_LAUNCH_AWS_FUNCTION: 'launch-aws',
  KRAFTSMAN_LAUNCH_GCP_FUNCTION: 'launch-gcp',
};

const clock = new OffsetClock();
const scheduled = () => scheduledEvent(clock);
const fence = { cluster: 'prod-gpu', name: 'provisioning', owner: 'req.nonce', token: 3 };
const payload = (nodeClass = ec2NodeClass()) => ({ fence, nodeClass, claims: ['aws-gpu-abcde'] });

validationTable(
  'provision',
  (d) => createProvisionHandler(d),
  (env) => buildProvisionDeps(env),
  scheduled,
  [
    { what: 'not an event at all', event: 'tick', error: /provision event: <root>: .*object/ },
    {
      what: 'not a scheduled event',
      event: { ...scheduled(), 'detail-type': 'Object Created' },
      error: /provision event: detail-type/,
    },
    { what: 'no id (the lease run id)', event: { ...scheduled(), id: '' }, error: /provision event: id/ },
    {
      what: 'a time that is not one',
      event: { ...scheduled(), time: 'yesterday' },
      error: /provision event: time/,
    },
    {
      what: 'a context without a request id',
      context: { functionName: 'provision' },
      error: /Lambda context: awsRequestId/,
    },
    {
      what: 'no launch function',
      env: { ...COMMON, KRAFTSMAN_LAUNCH_AWS_FUNCTION: 'launch-aws' },
      error: /KRAFTSMAN_LAUNCH_GCP_FUNCTION/,
    },
    {
      what: 'a batch window that is not a duration',
      env: { ...COMMON, ...LAUNCHERS, KRAFTSMAN_BATCH_IDLE: 'soon' },
      error: /KRAFTSMAN_BATCH_IDLE: "soon" is not a duration/,
    },
    {
      what: 'a cluster name GCE cannot label with',
      env: { ...COMMON, ...LAUNCHERS, KRAFTSMAN_CLUSTER_NAME: 'Prod_GPU' },
      error: /KRAFTSMAN_CLUSTER_NAME: must be a DNS label/,
    },
    {
      what: 'half of the GCP group',
      env: { ...COMMON, ...LAUNCHERS, KRAFTSMAN_GCP_PROJECT: 'ml-prod' },
      error:
        /KRAFTSMAN_GCP_REGION.*KRAFTSMAN_GCP_CREDENTIALS|KRAFTSMAN_GCP_CREDENTIALS.*KRAFTSMAN_GCP_REGION/,
    },
    {
      what: 'a flag that is not one',
      env: { ...COMMON, ...LAUNCHERS, KRAFTSMAN_UPSTREAM: 'yes' },
      error: /KRAFTSMAN_UPSTREAM: must be true or false/,
    },
  ],
);

const launchRows = (name: 'launch-aws' | 'launch-gcp', good: () => unknown): Row[] => [
  { what: 'no fence', event: { claims: ['a'] }, error: new RegExp(`${name} payload: fence`) },
  {
    what: 'no claims',
    event: { ...(good() as object), claims: [] },
    error: new RegExp(`${name} payload: claims`),
  },
  {
    what: 'two claims without a gang',
    event: { ...(good() as object), claims: ['a', 'b'] },
    error: /claims: more than one claim needs a gang/,
  },
  {
    what: 'a fence token below 1',
    event: { ...(good() as object), fence: { ...fence, token: 0 } },
    error: /fence\.token/,
  },
  {
    what: 'an unknown node class',
    event: { ...(good() as object), nodeClass: { kind: 'AzureNodeClass' } },
    error: /nodeClass/,
  },
  { what: 'no region', env: { ...COMMON, ...GCP, AWS_REGION: undefined }, error: /AWS_REGION is required/ },
  {
    what: 'a TTL that is not a duration',
    env: { ...COMMON, ...GCP, KRAFTSMAN_UNAVAILABLE_OFFERING_TTL: 'forever' },
    error: /KRAFTSMAN_UNAVAILABLE_OFFERING_TTL: "forever"/,
  },
];

validationTable(
  'launch-aws',
  (d) => createLaunchHandler('launch-aws', d),
  (env) => buildLaunchAwsDeps(env),
  () => payload(),
  launchRows('launch-aws', () => payload()),
);
validationTable(
  'launch-gcp',
  (d) => createLaunchHandler('launch-gcp', d),
  (env) => buildLaunchGcpDeps(env),
  () => payload(gceNodeClass()),
  [
    ...launchRows('launch-gcp', () => payload(gceNodeClass())),
    {
      what: 'no GCP project or credentials',
      env: COMMON,
      error:
        /KRAFTSMAN_GCP_PROJECT.*KRAFTSMAN_GCP_CREDENTIALS|KRAFTSMAN_GCP_CREDENTIALS.*KRAFTSMAN_GCP_PROJECT/,
    },
    {
      what: 'an empty zone list',
      env: { ...COMMON, ...GCP, KRAFTSMAN_GCP_ZONES: ' , ' },
      error: /KRAFTSMAN_GCP_ZONES: must list at least one value/,
    },
  ],
);

const record = () => sqsBatch(['{}']).Records[0] as Record<string, unknown>;
validationTable(
  'lifecycle',
  (d) => createLifecycleHandler(d),
  (env) => buildLifecycleDeps(env),
  scheduled,
  [
    {
      what: 'not a scheduled event',
      event: { ...scheduled(), source: '' },
      error: /lifecycle event: source/,
    },
    { what: 'an empty SQS batch', event: { Records: [] }, error: /lifecycle SQS batch: Records/ },
    {
      what: 'an SQS record without a message id',
      event: { Records: [{ ...record(), messageId: undefined }] },
      error: /lifecycle SQS batch: Records\.0\.messageId/,
    },
    {
      what: 'a record from another event source',
      event: { Records: [record(), { ...record(), eventSource: 'aws:kinesis' }] },
      error: /Records\.1\.eventSource/,
    },
    {
      what: 'a registration timeout that is not a duration',
      env: { ...COMMON, KRAFTSMAN_REGISTRATION_TIMEOUT: '25 minutes' },
      error: /KRAFTSMAN_REGISTRATION_TIMEOUT: "25 minutes" is not a duration/,
    },
    {
      what: 'no kube server',
      env: { ...COMMON, KRAFTSMAN_KUBE_SERVER: undefined },
      error: /KRAFTSMAN_KUBE_SERVER/,
    },
    {
      what: 'a log level it does not know',
      env: { ...COMMON, KRAFTSMAN_LOG_LEVEL: 'TRACE' },
      error: /KRAFTSMAN_LOG_LEVEL/,
    },
  ],
);
