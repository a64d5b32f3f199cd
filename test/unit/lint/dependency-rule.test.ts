// The dependency rule of eslint.config.js (docs/architecture.md): probe files linted in memory at paths inside each
// folder prove that every forbidden import or call is reported with its rule's message, and that allowed ones are not.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** Lints `code` as if it were the file `path` (relative to the repository root); nothing is written to disk. */
async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  if (!result) throw new Error(`no lint result for ${path}`);
  return result.messages.map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const importing = (source: string) => `import { x } from '${source}';\nexport const y = x;\n`;

type Probe = readonly [file: string, source: string, fires: string];
type Allowed = readonly [file: string, source: string];

async function expectFires(file: string, code: string, fires: string): Promise<void> {
  const found = await problems(file, code);
  expect(
    found.some((p) => p.includes(fires)),
    `${file}: ${code}\nreported: ${found.join('\n') || '(nothing)'}`,
  ).toBe(true);
}

async function expectClean(file: string, code: string): Promise<void> {
  expect(await problems(file, code), `${file}: ${code}`).toEqual([]);
}

describe('the order inside the core', () => {
  const forbidden: Probe[] = [
    ['shared/model/probe.ts', '../scheduling/scheduler.ts', 'shared/model may import only zod'],
    ['shared/model/probe.ts', '../catalog/index.ts', 'shared/model may import only zod'],
    ['shared/catalog/probe.ts', '../scheduling/scheduler.ts', 'shared/catalog may import only zod, model'],
    ['shared/scheduling/probe.ts', '../disruption/pass.ts', 'shared/scheduling may import only zod, model'],
    ['shared/scheduling/probe.ts', '../state/snapshot.ts', 'shared/scheduling may import only zod, model'],
    [
      'shared/scheduling/probe.ts',
      '../provisioning/simulate.ts',
      'shared/scheduling may import only zod, model',
    ],
    ['shared/scheduling/probe.ts', '../catalog/index.ts', 'shared/scheduling may import only zod, model'],
    ['shared/state/probe.ts', '../provisioning/simulate.ts', 'shared/state may import only'],
    ['shared/state/probe.ts', '../disruption/pass.ts', 'shared/state may import only'],
    ['shared/provisioning/probe.ts', '../disruption/pass.ts', 'shared/provisioning may import only'],
  ];
  it.each(forbidden)('%s may not import %s', async (file, source, fires) => {
    await expectFires(file, importing(source), `${fires}`);
  });

  it('also catches type-only imports and re-exports across the order', async () => {
    const file = 'shared/scheduling/probe.ts';
    await expectFires(
      file,
      "import type { Command } from '../disruption/types.ts';\nexport type C = Command;\n",
      'may import only zod, model',
    );
    await expectFires(
      file,
      "export { runPass } from '../disruption/pass.ts';\n",
      'may import only zod, model',
    );
    await expectFires(file, "export * from '../state/snapshot.ts';\n", 'may import only zod, model');
  });

  const allowed: Allowed[] = [
    ['shared/catalog/probe.ts', '../model/catalog.ts'],
    ['shared/scheduling/probe.ts', '../model/pod.ts'],
    ['shared/state/probe.ts', '../scheduling/scheduler.ts'],
    ['shared/state/probe.ts', '../catalog/index.ts'],
    ['shared/provisioning/probe.ts', '../state/snapshot.ts'],
    ['shared/disruption/probe.ts', '../provisioning/simulate.ts'],
    ['shared/disruption/probe.ts', 'zod'],
  ];
  it.each(allowed)('%s may import %s', async (file, source) => {
    await expectClean(file, importing(source));
  });
});

describe('the pure core and the outer rings', () => {
  const forbidden: Probe[] = [
    [
      'shared/disruption/probe.ts',
      '../ports/clock.ts',
      'The pure core (shared/disruption) imports only the core.',
    ],
    [
      'shared/state/probe.ts',
      '../loop/disruption-pass.ts',
      'The pure core (shared/state) imports only the core.',
    ],
    ['shared/scheduling/probe.ts', '../adapters/backoff.ts', 'imports only the core.'],
    ['shared/model/probe.ts', '../config/parse.ts', 'imports only the core.'],
    ['shared/disruption/probe.ts', '@aws-sdk/client-ec2', 'imports no package but zod.'],
    ['shared/state/probe.ts', 'yaml', 'imports no package but zod.'],
    ['shared/scheduling/probe.ts', 'node:crypto', 'imports no package but zod.'],
    ['shared/ports/probe.ts', '../adapters/kube/index.ts', 'Ports are interfaces over the core only.'],
    ['shared/ports/probe.ts', '../loop/disruption-pass.ts', 'Ports are interfaces over the core only.'],
    ['shared/ports/probe.ts', '@kubernetes/client-node', 'Ports are interfaces over the core: no package'],
    [
      'shared/loop/probe.ts',
      '../config/parse.ts',
      'The loop sees adapters, config and logging through ports only.',
    ],
    ['shared/loop/probe.ts', '../adapters/dynamodb/index.ts', 'through ports only.'],
    ['shared/loop/probe.ts', '../observability/logger.ts', 'through ports only.'],
    ['shared/loop/probe.ts', '@aws-sdk/client-dynamodb', 'Use cases combine core and ports: no package'],
    ['shared/config/probe.ts', '../adapters/aws-ec2/clients.ts', 'Config depends on the core only.'],
    ['shared/config/probe.ts', '@aws-sdk/client-ec2', 'Config is zod schemas over the core'],
    ['shared/observability/probe.ts', '@aws-sdk/client-cloudwatch', 'Observability may import only'],
    [
      'shared/observability/probe.ts',
      '../adapters/kube/index.ts',
      'Observability depends on ports and core only.',
    ],
    [
      'shared/observability/probe.ts',
      '../loop/disruption-pass.ts',
      'Observability depends on ports and core only.',
    ],
  ];
  it.each(forbidden)('%s may not import %s', async (file, source, fires) => {
    await expectFires(file, importing(source), fires);
  });

  const allowed: Allowed[] = [
    ['shared/ports/probe.ts', '../model/pod.ts'],
    ['shared/ports/probe.ts', '../state/objects.ts'],
    ['shared/loop/probe.ts', '../ports/state-store.ts'],
    ['shared/loop/probe.ts', '../disruption/pass.ts'],
    ['shared/config/probe.ts', '../model/duration.ts'],
    ['shared/observability/probe.ts', '@aws-lambda-powertools/logger'],
    ['shared/observability/probe.ts', '@aws-lambda-powertools/metrics'],
    ['shared/observability/probe.ts', '../ports/metrics.ts'],
  ];
  it.each(allowed)('%s may import %s', async (file, source) => {
    await expectClean(file, importing(source));
  });
});

describe('each adapter folder and its own SDK', () => {
  const forbidden: Probe[] = [
    ['shared/adapters/aws-ec2/probe.ts', '@google-cloud/compute', 'shared/adapters/aws-ec2 may import only'],
    [
      'shared/adapters/aws-ec2/probe.ts',
      '@aws-sdk/client-dynamodb',
      'shared/adapters/aws-ec2 may import only',
    ],
    [
      'shared/adapters/gcp-compute/probe.ts',
      '@aws-sdk/client-ec2',
      'shared/adapters/gcp-compute may import only',
    ],
    ['shared/adapters/kube/probe.ts', '@aws-sdk/client-dynamodb', 'shared/adapters/kube may import only'],
    ['shared/adapters/kube/probe.ts', 'yaml', 'shared/adapters/kube may import only'],
    ['shared/adapters/dynamodb/probe.ts', '@aws-sdk/client-ec2', 'shared/adapters/dynamodb may import only'],
    ['shared/adapters/dynamodb/probe.ts', '@smithy/types', 'shared/adapters/dynamodb may import only'],
    ['shared/adapters/lambda/probe.ts', '@aws-sdk/client-ec2', 'shared/adapters/lambda may import only'],
    ['shared/adapters/secrets/probe.ts', '@aws-sdk/client-lambda', 'shared/adapters/secrets may import only'],
    [
      'shared/adapters/memory/probe.ts',
      '@aws-sdk/client-dynamodb',
      'shared/adapters/memory may import only no SDK',
    ],
    ['shared/adapters/sqs/probe.ts', '@aws-sdk/client-sqs', 'A new adapter folder gets its SDK allowlist'],
    [
      'shared/adapters/backoff.ts',
      '@aws-sdk/client-ec2',
      'Shared adapter helpers (shared/adapters/*.ts) import no SDK.',
    ],
    ['shared/adapters/aws-ec2/probe.ts', '../gcp-compute/errors.ts', 'may not import another adapter folder'],
    ['shared/adapters/dynamodb/probe.ts', '../kube/index.ts', 'may not import another adapter folder'],
    [
      'shared/adapters/kube/probe.ts',
      '../../adapters/dynamodb/index.ts',
      'may not import another adapter folder',
    ],
    [
      'shared/adapters/aws-ec2/probe.ts',
      '../../loop/disruption-pass.ts',
      'An adapter depends on ports, core',
    ],
    ['shared/adapters/kube/probe.ts', '../../observability/logger.ts', 'An adapter depends on ports, core'],
    ['shared/adapters/backoff.ts', '../../functions/compose/clock.ts', 'An adapter depends on ports, core'],
  ];
  it.each(forbidden)('%s may not import %s', async (file, source, fires) => {
    await expectFires(file, importing(source), fires);
  });

  const allowed: Allowed[] = [
    ['shared/adapters/aws-ec2/probe.ts', '@aws-sdk/client-ec2'],
    ['shared/adapters/aws-ec2/probe.ts', '@aws-sdk/client-pricing'],
    ['shared/adapters/aws-ec2/probe.ts', '@smithy/types'],
    ['shared/adapters/aws-ec2/probe.ts', '../backoff.ts'],
    ['shared/adapters/aws-ec2/probe.ts', '../../config/aws-ec2.ts'],
    ['shared/adapters/aws-ec2/probe.ts', '../../ports/cloud-provider/index.ts'],
    ['shared/adapters/aws-ec2/probe.ts', '../../provisioning/bootstrap.ts'],
    ['shared/adapters/gcp-compute/probe.ts', '@google-cloud/compute'],
    ['shared/adapters/gcp-compute/probe.ts', '@google-cloud/billing'],
    ['shared/adapters/gcp-compute/probe.ts', 'google-auth-library'],
    ['shared/adapters/gcp-compute/probe.ts', 'node:crypto'],
    ['shared/adapters/kube/probe.ts', '@kubernetes/client-node'],
    ['shared/adapters/dynamodb/probe.ts', '@aws-sdk/client-dynamodb'],
    ['shared/adapters/dynamodb/probe.ts', '../backoff.ts'],
    ['shared/adapters/lambda/probe.ts', '@aws-sdk/client-lambda'],
    ['shared/adapters/secrets/probe.ts', '@aws-sdk/client-secrets-manager'],
    ['shared/adapters/system-clock.ts', '../ports/clock.ts'],
  ];
  it.each(allowed)('%s may import %s', async (file, source) => {
    await expectClean(file, importing(source));
  });
});

describe('the handlers in functions/', () => {
  const forbidden: Probe[] = [
    ['functions/provision/handler.ts', '../../shared/adapters/kube/cluster.ts', 'A handler imports only'],
    ['functions/provision/handler.ts', '../../shared/disruption/pass.ts', 'A handler imports only'],
    ['functions/provision/deps.ts', '../../shared/adapters/backoff.ts', 'A handler imports only'],
    ['functions/provision/handler.ts', '@aws-sdk/client-ec2', 'A handler imports only'],
    ['functions/provision/handler.ts', '../../local/cli/main.ts', 'A handler imports only'],
    ['functions/provision/handler.ts', '../consolidate/handler.ts', 'A handler imports only'],
    [
      'functions/compose/state-store.ts',
      '../../shared/disruption/pass.ts',
      'functions/compose builds adapters',
    ],
    ['functions/compose/state-store.ts', '@aws-sdk/client-dynamodb', 'functions/compose builds adapters'],
    ['functions/compose/cluster.ts', '@kubernetes/client-node', 'SDK clients are built inside the adapters'],
    ['functions/compose/gce.ts', '../../shared/catalog/builtin.ts', 'functions/compose builds adapters'],
    ['functions/provision/handler.ts', 'node:crypto', 'A handler imports only'],
  ];
  it.each(forbidden)('%s may not import %s', async (file, source, fires) => {
    await expectFires(file, importing(source), fires);
  });

  const allowed: Allowed[] = [
    ['functions/provision/handler.ts', './deps.ts'],
    ['functions/provision/handler.ts', '../compose/clock.ts'],
    ['functions/provision/handler.ts', '../../shared/loop/provision.ts'],
    ['functions/provision/deps.ts', '../../shared/config/provision.ts'],
    ['functions/provision/handler.ts', '../../shared/observability/logger.ts'],
    ['functions/provision/handler.ts', '../../shared/ports/clock.ts'],
    ['functions/provision/deps.ts', '../../shared/adapters/kube/index.ts'],
    ['functions/provision/handler.ts', 'zod'],
    ['functions/compose/cluster.ts', '../../shared/adapters/kube/cluster.ts'],
    ['functions/compose/clock.ts', '../../shared/adapters/system-clock.ts'],
    ['functions/compose/time.ts', 'node:crypto'],
  ];
  it.each(allowed)('%s may import %s', async (file, source) => {
    await expectClean(file, importing(source));
  });

  it('takes aws-lambda for its types only', async () => {
    const file = 'functions/provision/handler.ts';
    await expectClean(
      file,
      "import type { Context } from 'aws-lambda';\nexport const f = (c: Context) => c;\n",
    );
    await expectFires(file, importing('aws-lambda'), 'aws-lambda is types only.');
  });
});

describe('what the pure core may not call', () => {
  const calls: readonly [code: string, fires: string][] = [
    ['export const t = Date.now();', "'Date.now' is restricted"],
    ['export const t = new Date();', 'Use the injected Clock.'],
    ['export const r = Math.random();', "'Math.random' is restricted"],
    ['export const t = performance.now();', "'performance.now' is restricted"],
    ['export const id = crypto.randomUUID();', "'crypto.randomUUID' is restricted"],
    ['export const e = process.env.HOME;', "Unexpected use of 'process'"],
    ['export const e = globalThis.process;', "'globalThis.process' is restricted"],
    ["console.log('x');", "Unexpected use of 'console'"],
    ["export const r = fetch('http://x');", "Unexpected use of 'fetch'"],
    ['setTimeout(() => 0, 1);', "Unexpected use of 'setTimeout'"],
    ['setInterval(() => 0, 1);', "Unexpected use of 'setInterval'"],
    ['setImmediate(() => 0);', "Unexpected use of 'setImmediate'"],
    ['queueMicrotask(() => 0);', "Unexpected use of 'queueMicrotask'"],
    ['globalThis.setTimeout(() => 0, 1);', "'globalThis.setTimeout' is restricted"],
    ["export const m = import('./pass.ts');", 'no dynamic import()'],
  ];
  it.each(calls)('reports `%s` in shared/disruption', async (code, fires) => {
    await expectFires('shared/disruption/probe.ts', code, fires);
  });

  it.each(['shared/model', 'shared/catalog', 'shared/scheduling', 'shared/state', 'shared/provisioning'])(
    'applies the same to %s',
    async (dir) => {
      await expectFires(
        `${dir}/probe.ts`,
        'export const t = performance.now();',
        "'performance.now' is restricted",
      );
      await expectFires(`${dir}/probe.ts`, "export const m = import('./x.ts');", 'no dynamic import()');
    },
  );

  it('allows an explicit instant in the core, and clocks and dynamic import() outside it', async () => {
    await expectClean('shared/disruption/probe.ts', 'export const t = new Date(0);\n');
    await expectClean('shared/loop/probe.ts', "export const m = import('./x.ts');\n");
    await expectClean('shared/adapters/kube/probe.ts', 'export const t = Date.now();\n');
  });
});
