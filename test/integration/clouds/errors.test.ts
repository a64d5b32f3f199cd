// Error classification by name along `cause` (docs/conventions.md: retryable vs non-retryable,
// translated at the edge), for both adapters, and the port's helper that finds a contract error in a chain.
import { describe, expect, it } from 'vitest';
import {
  classifyEc2Error,
  toCloudError as ec2ToCloudError,
} from '../../../shared/adapters/aws-ec2/errors.ts';
import { classifyGceError, OperationError } from '../../../shared/adapters/gcp-compute/errors.ts';
import {
  FatalCloudError,
  InsufficientCapacityError,
  InstanceNotFoundError,
  RetryableCloudError,
  cloudErrorOf,
  isRetryableCloudError,
} from '../../../shared/ports/cloud-provider/errors.ts';

const named = (name: string, extra: Record<string, unknown> = {}): Error =>
  Object.assign(new Error(name), { name, ...extra });

describe('EC2 error classification', () => {
  it.each([
    ['InsufficientInstanceCapacity', 'capacity'],
    ['MaxSpotInstanceCountExceeded', 'capacity'],
    ['UnfulfillableCapacity', 'capacity'],
    ['InsufficientCapacity', 'capacity'],
    ['RequestLimitExceeded', 'throttled'],
    ['Throttling', 'throttled'],
    ['InvalidInstanceID.NotFound', 'not-found'],
    ['UnauthorizedOperation', 'fatal'],
    ['InvalidParameterValue', 'fatal'],
  ])('classifies %s as %s', (code, kind) => {
    expect(classifyEc2Error(named(code))).toBe(kind);
  });

  it('follows the cause chain and reads HTTP 5xx as transient', () => {
    expect(
      classifyEc2Error(
        new Error('wrapped', { cause: new Error('again', { cause: named('RequestLimitExceeded') }) }),
      ),
    ).toBe('throttled');
    expect(classifyEc2Error(named('Weird', { $metadata: { httpStatusCode: 503 } }))).toBe('throttled');
  });

  it('translates to the contract errors, keeping the SDK error as cause', () => {
    const sdk = named('InvalidInstanceID.NotFound');
    const translated = ec2ToCloudError(sdk, 'DescribeInstances');
    expect(translated).toBeInstanceOf(InstanceNotFoundError);
    expect(translated.cause).toBe(sdk);
    expect(ec2ToCloudError(named('Throttling'), 'X')).toBeInstanceOf(RetryableCloudError);
    expect(ec2ToCloudError(named('UnauthorizedOperation'), 'X')).toBeInstanceOf(FatalCloudError);
  });
});

describe('Compute Engine error classification', () => {
  const http = (status: number, reason: string): Error =>
    Object.assign(
      new Error(JSON.stringify({ error: { code: status, message: 'm', errors: [{ reason }] } })),
      { code: status },
    );

  it.each([
    [http(403, 'quotaExceeded'), 'quota'],
    [new OperationError('op', ['ZONE_RESOURCE_POOL_EXHAUSTED']), 'capacity'],
    [new OperationError('op', ['QUOTA_EXCEEDED']), 'quota'],
    [http(429, 'rateLimitExceeded'), 'throttled'],
    [
      Object.assign(
        new Error(
          JSON.stringify({
            error: { code: 429, status: 'RESOURCE_EXHAUSTED', errors: [{ reason: 'rateLimitExceeded' }] },
          }),
        ),
        { code: 429 },
      ),
      'throttled',
    ],
    [http(503, 'backendError'), 'throttled'],
    [http(404, 'notFound'), 'not-found'],
    [http(409, 'alreadyExists'), 'already-exists'],
    [http(400, 'invalid'), 'fatal'],
  ])('classifies %s', (err, kind) => {
    expect(classifyGceError(err)).toBe(kind);
  });

  it('finds a stockout named only in a wrapped message', () => {
    expect(
      classifyGceError(
        new Error('launch failed', {
          cause: new Error('ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS: no L4 left'),
        }),
      ),
    ).toBe('capacity');
  });
});

describe('contract errors along a cause chain', () => {
  it('finds the first contract error by name and says whether trying later may help', () => {
    const capacity = new InsufficientCapacityError('none', []);
    expect(cloudErrorOf(new Error('outer', { cause: capacity }))).toBe(capacity);
    expect(isRetryableCloudError(new Error('outer', { cause: new RetryableCloudError('slow down') }))).toBe(
      true,
    );
    expect(isRetryableCloudError(new FatalCloudError('bad node class'))).toBe(false);
    expect(cloudErrorOf(new Error('plain'))).toBeUndefined();
  });
});
