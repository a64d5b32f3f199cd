// Lint rules, and the dependency rule (docs/architecture.md) enforced per folder as import restrictions:
// functions → loop, adapters, config, observability → ports → core, and inside the core
// model → catalog | scheduling → state → provisioning → disruption. Each adapter folder owns its SDKs; the pure
// core also may not touch the clock, randomness, env, console, timers or I/O. test/unit/lint proves each rule fires.
import tseslint from 'typescript-eslint';

/** A package name as a regex source: `@scope/*` is the whole scope, `name` exactly that package. */
const pkg = (name) =>
  name.endsWith('/*') ? `${name.slice(0, -1).replace(/[.]/g, '\\.')}` : `${name.replace(/[.]/g, '\\.')}$`;
/** A bare specifier (a package or a Node built-in), unless it is one of `allowed` (package names). */
const bareExcept = (allowed) =>
  `^(?!\\.{1,2}/${allowed.map((a) => `|${a === 'node:*' ? 'node:' : pkg(a)}`).join('')})`;

/** The core in dependency order: each layer may import only the layers listed for it. */
const CORE_LAYERS = {
  model: [],
  catalog: ['model'],
  scheduling: ['model'],
  state: ['model', 'catalog', 'scheduling'],
  provisioning: ['model', 'catalog', 'scheduling', 'state'],
  disruption: ['model', 'catalog', 'scheduling', 'state', 'provisioning'],
};
const CORE = Object.keys(CORE_LAYERS);
const OUTER = ['ports', 'loop', 'adapters', 'config', 'observability', 'functions', 'local', 'test'];

/** The only packages each adapter folder may import besides zod and Node built-ins. */
const ADAPTER_SDKS = {
  'aws-ec2': [
    '@aws-sdk/client-ec2',
    '@aws-sdk/client-pricing',
    '@aws-sdk/client-iam',
    '@aws-sdk/client-ssm',
    '@smithy/*',
  ],
  'gcp-compute': ['@google-cloud/*', 'google-auth-library', 'google-gax'],
  kube: ['@kubernetes/client-node'],
  dynamodb: ['@aws-sdk/client-dynamodb'],
  lambda: ['@aws-sdk/client-lambda'],
  s3: ['@aws-sdk/client-s3'],
  secrets: ['@aws-sdk/client-secrets-manager'],
  memory: [],
  // Discovery worker threads (node:worker_threads); source-entry.mjs registers tsx's loader when run from source
  // (never imported, so never bundled: a Lambda's threads start on its handler, bundle-entry.ts).
  workers: ['tsx/esm/api'],
};

const folder = (name, message) => ({ group: [`**/${name}/**`], message });
const folders = (names, message) => names.map((n) => folder(n, message));
const restrict = (files, patterns, ignores) => ({
  files,
  ...(ignores ? { ignores } : {}),
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

const coreLayer = (name) =>
  restrict(
    [`shared/${name}/**`],
    [
      { regex: bareExcept(['zod']), message: `The pure core (shared/${name}) imports no package but zod.` },
      ...folders(OUTER, `The pure core (shared/${name}) imports only the core.`),
      ...folders(
        CORE.filter((c) => c !== name && !CORE_LAYERS[name].includes(c)),
        `shared/${name} may import only ${['zod', ...CORE_LAYERS[name]].join(', ')} (core layer order).`,
      ),
    ],
  );

const ADAPTER_LEAVES = ['functions', 'local', 'loop', 'observability', 'test'];
const OTHER_ADAPTER =
  'An adapter folder may not import another adapter folder; share through shared/adapters/*.ts.';
const adapterFolder = (name, sdks) =>
  restrict(
    [`shared/adapters/${name}/**`],
    [
      {
        regex: bareExcept(['node:*', 'zod', ...sdks]),
        message: `shared/adapters/${name} may import only ${sdks.length ? sdks.join(', ') : 'no SDK'} (its own SDK allowlist).`,
      },
      { regex: '^\\.\\./(?!\\.\\.)[^/]+/', message: OTHER_ADAPTER },
      { regex: '/adapters/[^/]+/', message: OTHER_ADAPTER },
      ...folders(ADAPTER_LEAVES, 'An adapter depends on ports, core, config and its own SDK only.'),
    ],
  );

/** functions/<fn>: its own folder, compose, loop, config, observability, ports, and an adapter's index.ts. */
const FUNCTION_IMPORTS = [
  '\\./[^/]+$',
  '\\.\\./compose/',
  '(?:\\.\\./)+shared/(?:loop|config|observability|ports)/',
  '(?:\\.\\./)+shared/adapters/[^/]+/index\\.ts$',
  'zod$',
];

const pureGlobals = {
  'no-restricted-globals': [
    'error',
    { name: 'process', message: 'The pure core takes configuration as parameters.' },
    { name: 'console', message: 'The pure core returns results; logging happens at the edge.' },
    { name: 'fetch', message: 'The pure core does no I/O.' },
    ...['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'].map((name) => ({
      name,
      message: 'The pure core schedules nothing; time comes from an injected Clock.',
    })),
    { name: 'performance', message: 'The pure core takes time from an injected Clock.' },
    { name: 'crypto', message: 'The pure core takes randomness as a seeded Rng parameter.' },
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Use the injected Clock.' },
    { object: 'Math', property: 'random', message: 'Use a seeded Rng parameter.' },
    { object: 'performance', property: 'now', message: 'Use the injected Clock.' },
    { object: 'crypto', property: 'randomUUID', message: 'Use a seeded Rng parameter.' },
    ...[
      'process',
      'console',
      'fetch',
      'performance',
      'crypto',
      'setTimeout',
      'setInterval',
      'setImmediate',
    ].map((property) => ({
      object: 'globalThis',
      property,
      message: `The pure core may not reach globalThis.${property}.`,
    })),
    {
      object: 'globalThis',
      property: 'queueMicrotask',
      message: 'The pure core may not reach globalThis.queueMicrotask.',
    },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the injected Clock.' },
    {
      selector: 'ImportExpression',
      message: 'The pure core loads no module at run time (no dynamic import()).',
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.serverless/**', '.esbuild/**', 'coverage/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: CORE.map((c) => `shared/${c}/**`), rules: pureGlobals },
  // Handlers and use cases log through the Logger port (structured JSON with the invocation's keys).
  { files: ['functions/**', 'shared/loop/**'], rules: { 'no-console': 'error' } },
  ...CORE.map(coreLayer),
  restrict(
    ['shared/ports/**'],
    [
      { regex: bareExcept(['zod']), message: 'Ports are interfaces over the core: no package but zod.' },
      ...folders(
        OUTER.filter((o) => o !== 'ports'),
        'Ports are interfaces over the core only.',
      ),
    ],
  ),
  restrict(
    ['shared/loop/**'],
    [
      { regex: bareExcept(['zod']), message: 'Use cases combine core and ports: no package but zod.' },
      ...folders(['functions', 'local', 'test'], 'Use cases combine core and ports only.'),
      ...folders(
        ['adapters', 'config', 'observability'],
        'The loop sees adapters, config and logging through ports only.',
      ),
    ],
  ),
  restrict(
    ['shared/config/**'],
    [
      { regex: bareExcept(['zod']), message: 'Config is zod schemas over the core: no package but zod.' },
      ...folders(
        ['functions', 'local', 'test', 'loop', 'adapters', 'observability'],
        'Config depends on the core only.',
      ),
    ],
  ),
  restrict(
    ['shared/observability/**'],
    [
      {
        regex: bareExcept(['zod', 'node:*', '@aws-lambda-powertools/*']),
        message: 'Observability may import only @aws-lambda-powertools/* (and zod, Node built-ins).',
      },
      ...folders(
        ['functions', 'local', 'test', 'loop', 'adapters'],
        'Observability depends on ports and core only.',
      ),
    ],
  ),
  restrict(
    ['shared/adapters/*.ts'],
    [
      {
        regex: bareExcept(['node:*', 'zod']),
        message: 'Shared adapter helpers (shared/adapters/*.ts) import no SDK.',
      },
      ...folders(ADAPTER_LEAVES, 'An adapter depends on ports, core, config and its own SDK only.'),
    ],
  ),
  ...Object.entries(ADAPTER_SDKS).map(([name, sdks]) => adapterFolder(name, sdks)),
  restrict(
    ['shared/adapters/*/**'],
    [
      {
        regex: bareExcept(['node:*', 'zod']),
        message: 'A new adapter folder gets its SDK allowlist in ADAPTER_SDKS (eslint.config.js) first.',
      },
    ],
    Object.keys(ADAPTER_SDKS).map((name) => `shared/adapters/${name}/**`),
  ),
  restrict(
    ['functions/**'],
    [
      {
        regex: `^(?!${FUNCTION_IMPORTS.join('|')}|aws-lambda$)`,
        message:
          "A handler imports only loop, config, observability, ports, compose and an adapter's index.ts.",
      },
      { regex: '^aws-lambda$', allowTypeImports: true, message: 'aws-lambda is types only.' },
    ],
    ['functions/compose/**'],
  ),
  restrict(
    ['functions/compose/**'],
    [
      {
        // Node built-ins: the composition root is where real time and randomness (node:crypto) come from.
        regex: `^(?!${[...FUNCTION_IMPORTS, '(?:\\.\\./)+shared/adapters/', 'node:'].join('|')})`,
        message:
          'functions/compose builds adapters from config: loop, config, observability, ports, adapters and Node built-ins only; SDK clients are built inside the adapters.',
      },
    ],
  ),
);
