// The table serverless.yml deploys is the one the adapter and the tests use: serverless.yml includes
// infra/dynamodb, and the keys, index and TTL attribute there are the ones the adapter writes.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GSI1 } from '../../../shared/adapters/dynamodb/index.ts';
import { commandKey, leaseKey, passPk } from '../../../shared/adapters/dynamodb/keys.ts';
import { createTableInput, tableResources } from '../../support/dynamodb/tables.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const serverless = parse(readFileSync(join(ROOT, 'serverless.yml'), 'utf8')) as {
  service: string;
  provider: { name: string; runtime: string; environment: Record<string, string> };
  custom: Record<string, string>;
  functions: Record<string, { handler: string; role: string; events?: unknown[] }>;
  resources: unknown[];
};

describe('the deployed state table', () => {
  it('is included by serverless.yml from infra/dynamodb', () => {
    expect(serverless.service).toBe('kraftsman');
    expect(serverless.provider).toMatchObject({ name: 'aws', runtime: 'nodejs22.x' });
    expect(serverless.resources).toContain('${file(infra/dynamodb/state-table.yml)}');
    expect(serverless.provider.environment.KRAFTSMAN_TABLE_NAME).toBe('${self:custom.stateTableName}');
    const table = tableResources().get('StateTable');
    expect(table?.Properties.TableName).toBe('${self:custom.stateTableName}');
  });

  it('deploys every function that has a handler under functions/<name>/handler, and only those', () => {
    // Roles, triggers and timeouts per function are test/infra/template.test.ts's, on the packaged template.
    const written = readdirSync(join(ROOT, 'functions'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(ROOT, 'functions', d.name, 'handler.ts')))
      .map((d) => d.name);
    expect(written.length).toBeGreaterThanOrEqual(7);
    expect(Object.keys(serverless.functions).sort()).toEqual([...written].sort());
    for (const name of written)
      expect(serverless.functions[name]?.handler).toBe(`functions/${name}/handler.handler`);
  });

  it('has the keys, index and TTL attribute the adapter writes', () => {
    const table = tableResources().get('StateTable');
    if (!table) throw new Error('infra/dynamodb declares no StateTable');
    const input = createTableInput(table, 'x');
    expect(input.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(
      input.GlobalSecondaryIndexes?.map((g) => [g.IndexName, g.KeySchema?.map((k) => k.AttributeName)]),
    ).toEqual([[GSI1, ['gsi1pk', 'gsi1sk']]]);
    expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'ttl', Enabled: true });
    expect(input.BillingMode).toBe('PAY_PER_REQUEST');
    expect([leaseKey('c', 'admission').pk, passPk('c'), commandKey('c', 'x').pk]).toEqual([
      'C#c#LEASE',
      'C#c#PASS',
      'C#c#CMD',
    ]);
  });
});
