// The local fleet's DynamoDB: AWS's DynamoDB Local where a Java runtime is on PATH (the closest to the service:
// transactions, TTL, ReturnValuesOnConditionCheckFailure), dynalite in-process otherwise, so that `npm start`
// needs nothing but Node. On dynalite the state store takes its documented two-write path where DynamoDB has a
// transaction (shared/adapters/dynamodb/README.md); both servers pass the same state-store contract suite.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { startDynalite } from './dynalite.ts';
import { startDynamoDbLocal } from './dynamodb-local.ts';
import type { FencingMode } from '../../shared/adapters/dynamodb/index.ts';
import type { LocalDynamo } from './server.ts';

/** Whether an executable `java` is in one of PATH's directories (what `spawn('java')` would find). */
export function javaOnPath(path: string | undefined = process.env.PATH): boolean {
  return (path ?? '')
    .split(delimiter)
    .filter((dir) => dir.length > 0)
    .some((dir) => {
      try {
        accessSync(join(dir, 'java'), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** dynalite has no transactions: fenced writes there take the state store's two-write path. */
export const fencingFor = (d: LocalDynamo): FencingMode =>
  d.kind === 'dynalite' ? 'two-writes' : 'transaction';

export function startLocalDynamo(hasJava: boolean = javaOnPath()): Promise<LocalDynamo> {
  return hasJava ? startDynamoDbLocal() : startDynalite();
}

/** One line for the user: which server holds the state and why. */
export function describeLocalDynamo(d: LocalDynamo): string {
  return d.kind === 'dynamodb-local'
    ? `state store: DynamoDB Local at ${d.endpoint} (Java found on PATH)`
    : `state store: dynalite at ${d.endpoint} (no Java on PATH; install a JRE to run on DynamoDB Local)`;
}
