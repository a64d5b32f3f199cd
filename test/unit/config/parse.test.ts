// Settings are parsed once per container and every bad key is reported at once, by name: a cold start
// that fails says everything that must be fixed.
import { describe, expect, it } from 'vitest';
import { parseEc2ProviderConfig } from '../../../shared/config/aws-ec2.ts';
import { DYNAMODB_RETRY, parseDynamoDbConfig } from '../../../shared/config/dynamodb.ts';
import { parseGceProviderConfig } from '../../../shared/config/gcp-compute.ts';
import { CLOUD_RETRY } from '../../../shared/config/retry-policy.ts';
import { configFailure } from '../../fixtures/config-env.ts';

describe('parseConfig', () => {
  it('names every bad key of the EC2 settings in one error', () => {
    const err = configFailure(() =>
      parseEc2ProviderConfig({ region: '', maxOverrides: 61, retry: { attempts: 0 } }),
    );
    expect(err.name).toBe('ConfigError');
    expect([...err.keys].sort()).toEqual(['clusterName', 'maxOverrides', 'region', 'retry.attempts']);
    expect(err.message).toMatch(/^invalid EC2 provider config: /);
    expect(err.message).toContain('region: region is required');
    expect(err.message).toContain('retry.attempts:');
  });

  it('names list positions of the Compute Engine settings', () => {
    const err = configFailure(() =>
      parseGceProviderConfig({ clusterName: 'c', project: 'p', region: 'r', zones: ['a', ''] }),
    );
    expect(err.keys).toEqual(['zones[1]']);
    expect(err.message).toContain('invalid GCE provider config: zones[1]:');
  });

  it('applies each adapter its own retry defaults', () => {
    const ec2 = parseEc2ProviderConfig({ clusterName: 'c', region: 'us-east-1' });
    expect(ec2.retry).toEqual(CLOUD_RETRY);
    const dynamo = parseDynamoDbConfig({ region: 'us-east-1', tableName: 'kraftsman-state' });
    expect(dynamo.retry).toEqual(DYNAMODB_RETRY);
    expect(dynamo.requestTimeoutMs).toBe(5_000);
    expect(parseDynamoDbConfig({ region: 'r', tableName: 'tbl', retry: { attempts: 2 } }).retry).toEqual({
      ...DYNAMODB_RETRY,
      attempts: 2,
    });
  });

  it('keeps the zod error as the cause and refuses a malformed endpoint', () => {
    const err = configFailure(() =>
      parseDynamoDbConfig({ region: 'r', tableName: 'x', endpoint: 'not a url' }),
    );
    expect([...err.keys].sort()).toEqual(['endpoint', 'tableName']);
    expect(err.cause).toBeDefined();
  });
});
