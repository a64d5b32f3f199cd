// The table serverless.yml deploys is the one the adapter and the tests use: serverless.yml includes
// infra/dynamodb, and the keys, index and TTL attribute there are the ones the adapter writes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GSI1 } from '../../../shared/adapters/dynamodb/index.ts';
import { commandKey, leaseKey, passPk } from '../../../shared/adapters/dynamodb/keys.ts';
import { createTableInput, tableResources } from '../../support/dynamodb/tables.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
interface Statement {
  Action: string | string[];
  Resource: unknown;
}
interface RoleResource {
  Type: string;
  Properties: { ManagedPolicyArns?: unknown[]; Policies?: { PolicyDocument: { Statement: Statement[] } }[] };
}
const serverless = parse(readFileSync(join(ROOT, 'serverless.yml'), 'utf8')) as {
  service: string;
  provider: { name: string; runtime: string; environment: Record<string, string> };
  custom: Record<string, string>;
  functions: Record<string, { handler: string; role: string; events?: unknown[] }>;
  resources: (
    | string
    | {
        Resources: Record<
          string,
          RoleResource & { Properties: { PolicyDocument?: { Statement: Statement[] } } }
        >;
      }
  )[];
};
const inline = serverless.resources.find((r) => typeof r !== 'string');
const resources = typeof inline === 'object' ? inline.Resources : {};
const actions = (statements: Statement[]): string[] => statements.flatMap((st) => [st.Action].flat());

describe('the deployed state table', () => {
  it('is included by serverless.yml from infra/dynamodb', () => {
    expect(serverless.service).toBe('kraftsman');
    expect(serverless.provider).toMatchObject({ name: 'aws', runtime: 'nodejs22.x' });
    expect(serverless.resources).toContain('${file(infra/dynamodb/state-table.yml)}');
    expect(serverless.provider.environment.KRAFTSMAN_STATE_TABLE).toBe('${self:custom.stateTableName}');
    const table = tableResources().get('StateTable');
    expect(table?.Properties.TableName).toBe('${self:custom.stateTableName}');
  });

  it('declares every function of docs/architecture.md with a handler under functions/<name>/handler', () => {
    const names = [
      'provision',
      'launch-aws',
      'launch-gcp',
      'consolidate',
      'admit',
      'orchestrate',
      'lifecycle',
      'census',
      'pricing',
    ];
    expect(Object.keys(serverless.functions).sort()).toEqual([...names].sort());
    for (const name of names)
      expect(serverless.functions[name]?.handler).toBe(`functions/${name}/handler.handler`);
  });

  it('runs each function under its own role holding the state policy, and the state policy allows items only', () => {
    const roles = Object.values(serverless.functions).map((f) => f.role);
    expect(new Set(roles).size).toBe(roles.length);
    for (const role of roles) {
      expect(resources[role]?.Type).toBe('AWS::IAM::Role');
      expect(resources[role]?.Properties.ManagedPolicyArns).toContainEqual({ Ref: 'StateAccessPolicy' });
      const granted = actions(
        (resources[role]?.Properties.Policies ?? []).flatMap((p) => p.PolicyDocument.Statement),
      );
      expect(granted.filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
    }
    const state = resources.StateAccessPolicy?.Properties.PolicyDocument?.Statement ?? [];
    expect(
      actions(state)
        .filter((a) => a.startsWith('dynamodb:'))
        .sort(),
    ).toEqual(
      ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'].map(
        (a) => `dynamodb:${a}`,
      ),
    );
    expect(JSON.stringify(state)).toContain(GSI1);
    // Only the functions that terminate or launch instances may touch EC2 instances.
    const ec2Writers = roles.filter((role) =>
      actions((resources[role]?.Properties.Policies ?? []).flatMap((p) => p.PolicyDocument.Statement)).some(
        (a) => ['ec2:CreateFleet', 'ec2:RunInstances', 'ec2:TerminateInstances'].includes(a),
      ),
    );
    expect(ec2Writers.sort()).toEqual(['LaunchAwsRole', 'LifecycleRole', 'OrchestrateRole']);
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
