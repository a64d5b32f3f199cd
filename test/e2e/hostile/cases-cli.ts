// The command line itself (help, version, usage errors, --now), control characters that must never reach a
// terminal raw, and the inconsistencies that stay warnings (exit 0, the command goes on).
import { stringify } from 'yaml';
import { inProcessWhere, type HostileCase } from './cases.ts';
import { list, node, nodePool, pod, simulateYaml, withField, write } from './objects.ts';

const usage = (name: string, argv: string[], stderr: RegExp): HostileCase => ({
  name,
  setup: (dir) => ({ args: argv.map((a) => a.replace('$FILE', write(dir, 'ok', 'yaml', stringify(pod())))) }),
  code: 2,
  stderr: [stderr],
});

const catalog = (overhead: Record<string, string>): string =>
  JSON.stringify({
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    instanceTypes: [
      {
        name: 'tiny.large',
        cloud: 'aws',
        capacity: { cpu: '2', memory: '4Gi', pods: '10' },
        overhead,
        offerings: [{ zone: 'us-east-1a', capacityType: 'on-demand', price: 0.1 }],
      },
    ],
  });

const ESC = '\u001b';

const cases: HostileCase[] = [
  {
    name: 'kraftsman --help',
    setup: () => ({ args: ['--help'] }),
    code: 0,
    stderr: [],
    // Every command, the local fleet and userdata included, and the catalog options.
    stdout:
      /usage: kraftsman[\s\S]*simulate[\s\S]*plan[\s\S]*census[\s\S]*userdata[\s\S]*fleet[\s\S]*--extra-types[\s\S]*--region/,
  },
  {
    name: 'kraftsman help',
    setup: () => ({ args: ['help'] }),
    code: 0,
    stderr: [],
    stdout: /usage: kraftsman/,
  },
  {
    name: 'kraftsman --version',
    setup: () => ({ args: ['--version'] }),
    code: 0,
    stderr: [],
    stdout: /^kraftsman \d+\.\d+\.\d+\n$/,
  },
  {
    name: 'kraftsman simulate --help',
    setup: () => ({ args: ['simulate', '--help'] }),
    code: 0,
    stderr: [],
    // the command's own help: its usage and options, not the list of commands
    stdout: /^usage: kraftsman simulate [\s\S]*--extra-types[\s\S]*Exit codes/,
  },
  usage('no arguments', [], /usage: kraftsman/),
  usage('an unknown command', ['frobnicate'], /unknown command "frobnicate"/),
  usage('an unknown option', ['simulate', '-f', '$FILE', '--fast'], /unknown option "--fast"/),
  usage('-f without a file', ['simulate', '-f'], /-f needs a value/),
  usage('-o yaml', ['simulate', '-f', '$FILE', '-o', 'yaml'], /-o must be json or table/),
  usage(
    '--max-commands 0',
    ['plan', '-f', '$FILE', '--max-commands', '0'],
    /--max-commands needs a positive integer/,
  ),
  usage('--now "1"', ['simulate', '-f', '$FILE', '--now', '1'], /--now "1" is not an RFC 3339 instant/),
  usage(
    '--now "Tuesday, 1 December 2026"',
    ['simulate', '-f', '$FILE', '--now', 'Tuesday, 1 December 2026'],
    /is not an RFC 3339 instant/,
  ),
  usage(
    '--now on 31 April',
    ['simulate', '-f', '$FILE', '--now', '2026-04-31T00:00:00Z'],
    /is not an RFC 3339 instant/,
  ),
  {
    name: 'empty standard input',
    setup: () => ({ args: ['simulate', '-f', '-'], stdin: '' }),
    code: 2,
    stderr: [/empty input/],
  },
  {
    name: 'JSON on standard input',
    setup: () => ({
      args: ['simulate', '-f', '-', '-o', 'json'],
      stdin: JSON.stringify(list(withField(pod(), ['spec', 'nodeName'], 'gone'))),
    }),
    code: 0,
    stderr: [/warning: Pod default\/web-0 is bound to node gone/],
    stdout: /"pods": \[\]/,
  },
  {
    name: 'an escape sequence in a pod name',
    setup: simulateYaml('esc-name', pod(`web${ESC}[31m-red`)),
    code: 2,
    stderr: [/Pod default\/"web\\u001b\[31m-red": metadata\.name: /],
  },
  {
    name: 'a carriage return in a namespace',
    setup: simulateYaml('cr-namespace', pod('web-0', `ok\rEVIL`)),
    code: 2,
    stderr: [/Pod "ok\\rEVIL"\/web-0: metadata\.namespace: /],
  },
  {
    name: 'a right-to-left override in a label value',
    setup: simulateYaml('bidi-label', withField(pod(), ['metadata', 'labels'], { app: 'a\u202eb' })),
    code: 2,
    stderr: [/metadata\.labels\.app: "a\\u202eb": a valid label/],
  },
  {
    name: 'a C1 control in a label key',
    setup: simulateYaml('c1-key', withField(pod(), ['metadata', 'labels'], { 'a\u009bb': 'x' })),
    code: 2,
    stderr: [/key "a\\u009bb"/],
  },
  {
    name: 'an escape sequence in an ignored kind',
    setup: simulateYaml('esc-kind', {
      apiVersion: 'v1',
      kind: `Config${ESC}]0;owned${'\u0007'}Map`,
      metadata: { name: 'x' },
    }),
    code: 0,
    stderr: [/warning: .*ignoring "Config\\u001b\]0;owned\\u0007Map" x/],
    stdout: /"pods": \[\]/,
  },
  {
    name: 'a catalog type whose overhead exceeds its capacity',
    setup: (dir) => ({
      args: [
        'simulate',
        '-f',
        write(dir, 'one-pod', 'yaml', stringify(list(nodePool(), pod()))),
        '--catalog',
        write(dir, 'overhead', 'json', catalog({ cpu: '3', memory: '1Gi' })),
        '-o',
        'json',
      ],
    }),
    code: 0,
    stderr: [/warning: .*instance type tiny\.large: overhead cpu 3 exceeds its capacity 2/],
    stdout: /"result": "unschedulable"/,
  },
  {
    name: 'one providerID on two nodes',
    setup: simulateYaml(
      'shared-provider-id',
      nodePool(),
      node('node-a', 'aws:///us-east-1a/i-0abc'),
      node('node-b', 'aws:///us-east-1a/i-0abc'),
    ),
    code: 0,
    stderr: [/warning: providerID aws:\/\/\/us-east-1a\/i-0abc is on 2 nodes \(node-a, node-b\)/],
    stdout: /"pods": \[\]/,
  },
  {
    name: 'the same pod given twice',
    setup: simulateYaml('twice', pod('dup'), pod('dup')),
    code: 0,
    stderr: [/Pod default\/dup given more than once; counted once/],
    stdout: /"pod": "default\/dup"/,
  },
  {
    name: 'a pod bound to a node that is not in the input',
    setup: simulateYaml('orphan', withField(pod(), ['spec', 'nodeName'], 'elsewhere')),
    code: 0,
    stderr: [/Pod default\/web-0 is bound to node elsewhere, which is not in the input; pod ignored/],
    stdout: /"pods": \[\]/,
  },
  {
    name: 'a catalog with a negative price',
    setup: (dir) => ({
      args: [
        'simulate',
        '-f',
        write(dir, 'p', 'yaml', stringify(pod())),
        '--catalog',
        write(dir, 'neg', 'json', catalog({}).replace('0.1', '-0.1')),
      ],
    }),
    code: 2,
    stderr: [/neg\.json: InstanceTypeCatalog: instanceTypes\[0\]\.offerings\[0\]\.price: /],
  },
];

/** Variants of a rule that another case already runs as a child process: these run in-process (cheaper). */
const VARIANTS = new Set(['--now on 31 April', 'a C1 control in a label key', '-f without a file']);
export const cliCases: HostileCase[] = inProcessWhere(cases, VARIANTS);
