// The census function refuses a bad event, context or configuration with a message naming the field, through
// its handler (the rows test/e2e/provisioning/validation.test.ts has for the provisioning functions). Event rows
// never reach the dependencies; config rows build them the way deps.ts does and fail at the cold-start parse.
import { describe, expect, it } from 'vitest';
import { buildCensusDeps } from '../../../functions/census/deps.ts';
import { createCensusHandler } from '../../../functions/census/handler.ts';
import { OffsetClock } from '../../fakes/offset-clock.ts';
import { lambdaContext, scheduledEvent } from '../../support/e2e/index.ts';

type Env = Record<string, string | undefined>;
const COMMON: Env = {
  KRAFTSMAN_CLUSTER_NAME: 'prod-gpu',
  AWS_REGION: 'us-east-1',
  KRAFTSMAN_TABLE_NAME: 'kraftsman-state',
  KRAFTSMAN_KUBE_SERVER: 'https://api.prod-gpu.example.internal:6443',
  KRAFTSMAN_KUBE_TOKEN: 'token',
};
const clock = new OffsetClock();
const scheduled = () => scheduledEvent(clock);
const noDeps = () => Promise.reject(new Error('dependencies were built for an invalid event'));

interface Row {
  readonly what: string;
  readonly event?: unknown;
  readonly context?: unknown;
  readonly env?: Env;
  readonly error: RegExp;
}

const ROWS: readonly Row[] = [
  { what: 'not an event at all', event: 'tick', error: /census event: <root>: .*object/ },
  {
    what: 'not a scheduled event',
    event: { ...scheduled(), 'detail-type': 'Object Created' },
    error: /census event: detail-type/,
  },
  { what: 'no id (the lease run id)', event: { ...scheduled(), id: '' }, error: /census event: id/ },
  { what: 'a time that is not one', event: { ...scheduled(), time: 'later' }, error: /census event: time/ },
  {
    what: 'a context without a request id',
    context: { functionName: 'census' },
    error: /Lambda context: awsRequestId/,
  },
  {
    what: 'a sweep budget that is not a duration',
    env: { ...COMMON, KRAFTSMAN_CENSUS_BUDGET: 'five minutes' },
    error: /KRAFTSMAN_CENSUS_BUDGET: "five minutes" is not a duration/,
  },
  {
    what: 'a lease TTL that is not a duration',
    env: { ...COMMON, KRAFTSMAN_LEASE_TTL: '-' },
    error: /KRAFTSMAN_LEASE_TTL/,
  },
  {
    what: 'a flag that is not one',
    env: { ...COMMON, KRAFTSMAN_UPSTREAM: 'yes' },
    error: /KRAFTSMAN_UPSTREAM: must be true or false/,
  },
  {
    what: 'half of the GCP group',
    env: { ...COMMON, KRAFTSMAN_GCP_PROJECT: 'ml-prod' },
    error: /KRAFTSMAN_GCP_REGION.*KRAFTSMAN_GCP_CREDENTIALS|KRAFTSMAN_GCP_CREDENTIALS.*KRAFTSMAN_GCP_REGION/,
  },
  {
    what: 'no state table',
    env: { ...COMMON, KRAFTSMAN_TABLE_NAME: undefined },
    error: /KRAFTSMAN_TABLE_NAME/,
  },
];

describe('census validates its event and config', () => {
  it.each(ROWS.map((r) => [r.what, r] as const))('%s', async (_what, row) => {
    const env = row.env;
    const deps = env ? () => Promise.resolve().then(() => buildCensusDeps(env)) : noDeps;
    const run = createCensusHandler(deps)(
      row.event === undefined ? scheduled() : row.event,
      row.context ?? lambdaContext('census'),
    );
    await expect(run).rejects.toThrow(row.error);
    await expect(run).rejects.toHaveProperty(
      'name',
      env ? 'ConfigError' : expect.stringMatching(/^Invalid(Event|Context)Error$/),
    );
  });
});
