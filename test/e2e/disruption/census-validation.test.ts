// The census function refuses a bad event, context or configuration with a message naming the field, through
// its handler (the rows test/e2e/provisioning/validation.test.ts has for the provisioning functions). Event rows
// never reach the dependencies; config rows build them the way deps.ts does and fail at the cold-start parse.
import { buildCensusDeps } from '../../../functions/census/deps.ts';
import { createCensusHandler } from '../../../functions/census/handler.ts';
import { OffsetClock } from '../../fakes/offset-clock.ts';
import { scheduledEvent } from '../../support/e2e/index.ts';
import { COMMON_ENV as COMMON, validationTable, type Row } from '../../support/e2e/validation-table.ts';

const clock = new OffsetClock();
const scheduled = () => scheduledEvent(clock);

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

validationTable(
  'census',
  (d) => createCensusHandler(d),
  (env) => buildCensusDeps(env),
  scheduled,
  ROWS,
);
