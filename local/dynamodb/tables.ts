// Creates tables on a local server from infra/dynamodb (the same CloudFormation the deploy uses), parsed with `yaml`:
// each AWS::DynamoDB::Table becomes one CreateTable under a name the caller chooses, plus its TTL where supported.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { parse } from 'yaml';
import { z } from 'zod';
import { setupClient } from './credentials.ts';
import type { LocalDynamo } from './server.ts';

const INFRA = join(import.meta.dirname, '..', '..', 'infra', 'dynamodb');

const keySchema = z.array(z.object({ AttributeName: z.string(), KeyType: z.enum(['HASH', 'RANGE']) }));
const tableResource = z.object({
  Type: z.literal('AWS::DynamoDB::Table'),
  Properties: z.looseObject({
    BillingMode: z.enum(['PAY_PER_REQUEST', 'PROVISIONED']),
    AttributeDefinitions: z.array(
      z.object({ AttributeName: z.string(), AttributeType: z.enum(['S', 'N', 'B']) }),
    ),
    KeySchema: keySchema,
    GlobalSecondaryIndexes: z
      .array(
        z.object({
          IndexName: z.string(),
          KeySchema: keySchema,
          Projection: z.object({ ProjectionType: z.enum(['ALL', 'KEYS_ONLY', 'INCLUDE']) }),
        }),
      )
      .optional(),
    TimeToLiveSpecification: z.object({ AttributeName: z.string(), Enabled: z.boolean() }).optional(),
  }),
});
export type TableResource = z.infer<typeof tableResource>;

/** Every table resource declared under infra/dynamodb, by logical id. */
export function tableResources(): Map<string, TableResource> {
  const out = new Map<string, TableResource>();
  for (const file of readdirSync(INFRA).filter((f) => /\.ya?ml$/.test(f))) {
    const doc = z
      .object({ Resources: z.record(z.string(), z.unknown()) })
      .parse(parse(readFileSync(join(INFRA, file), 'utf8')));
    for (const [id, resource] of Object.entries(doc.Resources)) {
      const r = tableResource.safeParse(resource);
      if (!r.success)
        throw new Error(
          `infra/dynamodb/${file}: resource ${id} is not a table this helper understands: ${r.error.message}`,
        );
      out.set(id, r.data);
    }
  }
  return out;
}

export function createTableInput(resource: TableResource, tableName: string): CreateTableCommandInput {
  const p = resource.Properties;
  return {
    TableName: tableName,
    BillingMode: p.BillingMode,
    AttributeDefinitions: p.AttributeDefinitions,
    KeySchema: p.KeySchema,
    ...(p.GlobalSecondaryIndexes ? { GlobalSecondaryIndexes: p.GlobalSecondaryIndexes } : {}),
  };
}

/** Creates the resource `logicalId` (default StateTable) as `tableName` on a local server. */
export async function createTable(
  server: LocalDynamo,
  tableName: string,
  logicalId = 'StateTable',
): Promise<void> {
  const resource = tableResources().get(logicalId);
  if (!resource) throw new Error(`infra/dynamodb declares no table ${logicalId}`);
  const client = setupClient(server.endpoint);
  try {
    await client.send(new CreateTableCommand(createTableInput(resource, tableName)));
    const ttl = resource.Properties.TimeToLiveSpecification;
    // dynalite has no UpdateTimeToLive; TTL is cleanup only, so the store's behaviour does not depend on it.
    if (ttl && server.full)
      await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: ttl }));
  } finally {
    client.destroy();
  }
}
