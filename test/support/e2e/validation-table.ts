// Table-driven checks that a function refuses a bad event, context or configuration through its handler, with
// a message naming the field. Event rows never reach the dependencies; config rows build them the way deps.ts
// does and fail at the cold-start parse.
import { describe, expect, it } from 'vitest';
import { lambdaContext } from './lambda-events.ts';

export type Env = Record<string, string | undefined>;
export type Handler = (event: unknown, context: unknown) => Promise<unknown>;

/** What every function's config needs: the cluster, the state table and the Kubernetes API. */
export const COMMON_ENV: Env = {
  KRAFTSMAN_CLUSTER_NAME: 'prod-gpu',
  AWS_REGION: 'us-east-1',
  KRAFTSMAN_TABLE_NAME: 'kraftsman-state',
  KRAFTSMAN_KUBE_SERVER: 'https://api.prod-gpu.example.internal:6443',
  KRAFTSMAN_KUBE_TOKEN: 'token',
};

export interface Row {
  readonly what: string;
  /** Default: the function's good event. */
  readonly event?: unknown;
  readonly context?: unknown;
  /** Set: a config row (dependencies built from it); unset: an event or context row. */
  readonly env?: Env;
  readonly error: RegExp;
}

const noDeps = () => Promise.reject(new Error('dependencies were built for an invalid event'));

/** One test per row: the handler fails on the event (deps never built) or on the config (built from env). */
export function validationTable(
  name: string,
  make: (deps: () => Promise<never>) => Handler,
  build: (env: Env) => unknown,
  good: () => unknown,
  rows: readonly Row[],
): void {
  describe(`${name} validates its event and config`, () => {
    it.each(rows.map((r) => [r.what, r] as const))('%s', async (_what, row) => {
      const deps = row.env ? () => Promise.resolve().then(() => build(row.env as Env) as never) : noDeps;
      const run = make(deps)(
        row.event === undefined ? good() : row.event,
        row.context ?? lambdaContext(name),
      );
      await expect(run).rejects.toThrow(row.error);
      await expect(run).rejects.toHaveProperty(
        'name',
        row.env ? 'ConfigError' : expect.stringMatching(/^Invalid(Event|Context)Error$/),
      );
    });
  });
}
