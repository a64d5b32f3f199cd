// NodePools and NodeClaims that Karpenter v1.14's CRDs refuse (patterns, CEL rules), cron schedules that
// robfig/cron refuses, durations beyond Go's range — and schedules that never fire, which must still end.
import { inProcessWhere, refused, type HostileCase } from './cases.ts';
import { node, nodeClaim, nodePool, simulateYaml, withField, write, type Obj } from './objects.ts';
import { stringify } from 'yaml';
import { list } from './objects.ts';

const NP = 'NodePool gpu';
const NC = 'NodeClaim gpu-abcde';
const REQS = ['spec', 'template', 'spec', 'requirements'] as const;
const requirement = (r: Obj): Obj => withField(nodePool(), [...REQS, 0], r);
const budget = (b: Obj): Obj => withField(nodePool(), ['spec', 'disruption', 'budgets', 0], b);
const schedule = (cron: string): Obj => budget({ nodes: '0', schedule: cron, duration: '1h' });
const reqField = 'spec.template.spec.requirements[0]';
const budgetField = 'spec.disruption.budgets[0]';

/** `plan` over one empty managed node whose NodePool has the given budget: must end, whatever the schedule. */
function planWithBudget(name: string, b: Obj): HostileCase {
  return {
    name,
    setup: (dir) => ({
      args: [
        'plan',
        '-f',
        write(dir, name.replace(/\W+/g, '-'), 'yaml', stringify(list(budget(b), node()))),
        '-o',
        'json',
        '--now',
        '2026-12-01T12:00:00Z',
      ],
    }),
    code: 0,
    stderr: [],
    stdout: /"commands"/,
  };
}

const cases: HostileCase[] = [
  refused(
    'a Gt requirement of -5',
    [requirement({ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: ['-5'] })],
    NP,
    `${reqField}.values[0]`, // the values pattern refuses "-5" before the CEL rule does
    /a valid label must be/,
  ),
  refused(
    'a Gt requirement that is not a number',
    [requirement({ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gt', values: ['many'] })],
    NP,
    `${reqField}.values`,
    /single positive integer value/,
  ),
  refused(
    'an Lte requirement with two values',
    [requirement({ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Lte', values: ['4', '8'] })],
    NP,
    `${reqField}.values`,
    /single positive integer value/,
  ),
  refused(
    'an In requirement without values',
    [requirement({ key: 'karpenter.sh/capacity-type', operator: 'In', values: [] })],
    NP,
    `${reqField}.values`,
    /must have a value defined/,
  ),
  refused(
    'an unknown requirement operator',
    [requirement({ key: 'karpenter.sh/capacity-type', operator: 'Near', values: ['spot'] })],
    NP,
    `${reqField}.operator`,
    /./,
  ),
  refused(
    'a requirement on the karpenter.sh domain',
    [requirement({ key: 'karpenter.sh/team', operator: 'Exists' })],
    NP,
    `${reqField}.key`,
    /label domain "karpenter\.sh" is restricted/,
  ),
  refused(
    'a requirement on the hostname',
    [requirement({ key: 'kubernetes.io/hostname', operator: 'In', values: ['a'] })],
    NP,
    `${reqField}.key`,
    /"kubernetes\.io\/hostname" is restricted/,
  ),
  refused(
    'a requirement on the nodepool label',
    [requirement({ key: 'karpenter.sh/nodepool', operator: 'In', values: ['a'] })],
    NP,
    `${reqField}.key`,
    /"karpenter\.sh\/nodepool" is restricted/,
  ),
  refused(
    'a requirement key of 317 characters',
    [requirement({ key: `${'a'.repeat(250)}.io/${'b'.repeat(63)}`, operator: 'Exists' })],
    NP,
    `${reqField}.key`,
    /at most 316 characters/,
  ),
  refused(
    'a requirement value of 64 characters',
    [requirement({ key: 'team', operator: 'In', values: ['v'.repeat(64)] })],
    NP,
    `${reqField}.values[0]`,
    /no more than 63 characters/,
  ),
  refused(
    'minValues above the values given',
    [
      requirement({
        key: 'node.kubernetes.io/instance-type',
        operator: 'In',
        values: ['a', 'b'],
        minValues: 3,
      }),
    ],
    NP,
    `${reqField}.minValues`,
    /at least that many values/,
  ),
  refused(
    'minValues of 51',
    [requirement({ key: 'node.kubernetes.io/instance-type', operator: 'Exists', minValues: 51 })],
    NP,
    `${reqField}.minValues`,
    /./,
  ),
  refused(
    'a template label on the nodepool key',
    [withField(nodePool(), ['spec', 'template', 'metadata', 'labels'], { 'karpenter.sh/nodepool': 'x' })],
    NP,
    'spec.template.metadata.labels.karpenter.sh/nodepool',
    /restricted/,
  ),
  refused(
    'a NodePool taint with a space in its key',
    [
      withField(
        nodePool(),
        ['spec', 'template', 'spec', 'taints'],
        [{ key: 'gpu node', effect: 'NoSchedule' }],
      ),
    ],
    NP,
    'spec.template.spec.taints[0].key',
    /label key/,
  ),
  refused(
    'a NodePool taint with an unknown effect',
    [withField(nodePool(), ['spec', 'template', 'spec', 'taints'], [{ key: 'gpu', effect: 'NoWay' }])],
    NP,
    'spec.template.spec.taints[0].effect',
    /./,
  ),
  refused(
    'a nodeClassRef with an empty kind',
    [withField(nodePool(), ['spec', 'template', 'spec', 'nodeClassRef', 'kind'], '')],
    NP,
    'spec.template.spec.nodeClassRef.kind',
    /kind may not be empty/,
  ),
  refused(
    'a nodeClassRef group with a slash',
    [withField(nodePool(), ['spec', 'template', 'spec', 'nodeClassRef', 'group'], 'karpenter.k8s.aws/v1')],
    NP,
    'spec.template.spec.nodeClassRef.group',
    /may not contain/,
  ),
  refused('a NodePool weight of 0', [withField(nodePool(), ['spec', 'weight'], 0)], NP, 'spec.weight', /./),
  refused(
    'a NodePool limit that is not a quantity',
    [withField(nodePool(), ['spec', 'limits'], { cpu: 'lots' })],
    NP,
    'spec.limits.cpu',
    /invalid quantity/,
  ),
  refused(
    'an expireAfter of 1.5h',
    [withField(nodePool(), ['spec', 'template', 'spec', 'expireAfter'], '1.5h')],
    NP,
    'spec.template.spec.expireAfter',
    /whole seconds, minutes or hours/,
  ),
  refused(
    'an expireAfter without a unit',
    [withField(nodePool(), ['spec', 'template', 'spec', 'expireAfter'], '720')],
    NP,
    'spec.template.spec.expireAfter',
    /whole seconds/,
  ),
  refused(
    "an expireAfter above Go's maximum",
    [withField(nodePool(), ['spec', 'template', 'spec', 'expireAfter'], '2562048h')],
    NP,
    'spec.template.spec.expireAfter',
    /at most 2562047h/,
  ),
  refused(
    'a consolidateAfter of 10^30 hours',
    [withField(nodePool(), ['spec', 'disruption', 'consolidateAfter'], `1${'0'.repeat(30)}h`)],
    NP,
    'spec.disruption.consolidateAfter',
    /at most 2562047h/,
  ),
  refused(
    'a negative terminationGracePeriod',
    [withField(nodePool(), ['spec', 'template', 'spec', 'terminationGracePeriod'], '-1s')],
    NP,
    'spec.template.spec.terminationGracePeriod',
    /whole seconds/,
  ),
  refused(
    'an unknown consolidationPolicy',
    [withField(nodePool(), ['spec', 'disruption', 'consolidationPolicy'], 'Always')],
    NP,
    'spec.disruption.consolidationPolicy',
    /./,
  ),
  refused(
    'a budget of 150% of nodes',
    [budget({ nodes: '150%' })],
    NP,
    `${budgetField}.nodes`,
    /between 0% and 100%/,
  ),
  refused(
    'a budget with an unknown reason',
    [budget({ nodes: '1', reasons: ['Bored'] })],
    NP,
    `${budgetField}.reasons[0]`,
    /./,
  ),
  refused(
    'a budget schedule without a duration',
    [budget({ nodes: '1', schedule: '0 9 * * *' })],
    NP,
    `${budgetField}.schedule`,
    /must be set with 'duration'/,
  ),
  refused(
    'a budget duration of 1.5h',
    [budget({ nodes: '0', schedule: '0 9 * * *', duration: '1.5h' })],
    NP,
    `${budgetField}.duration`,
    /whole hours and minutes/,
  ),
  refused(
    "a budget duration above Go's maximum",
    [budget({ nodes: '0', schedule: '0 9 * * *', duration: '2562048h' })],
    NP,
    `${budgetField}.duration`,
    /at most 2562047h/,
  ),
  refused(
    'a cron minute of 61',
    [schedule('61 * * * *')],
    NP,
    `${budgetField}.schedule`,
    /above maximum \(59\)/,
  ),
  refused(
    'a cron day of week 7',
    [schedule('0 0 * * 7')],
    NP,
    `${budgetField}.schedule`,
    /above maximum \(6\)/,
  ),
  refused(
    'a cron with six fields',
    [schedule('0 0 0 * * *')],
    NP,
    `${budgetField}.schedule`,
    /expected exactly 5 fields/,
  ),
  refused('a cron with four fields', [schedule('0 0 * *')], NP, `${budgetField}.schedule`, /five fields/),
  refused('a cron @every', [schedule('@every 1h')], NP, `${budgetField}.schedule`, /five fields/),
  refused(
    'a cron step of 0',
    [schedule('*/0 * * * *')],
    NP,
    `${budgetField}.schedule`,
    /step of range should be a positive number/,
  ),
  refused(
    'a cron range that runs backwards',
    [schedule('0 17-9 * * *')],
    NP,
    `${budgetField}.schedule`,
    /beyond end of range/,
  ),
  refused(
    'a cron with a time zone',
    [schedule('TZ=Europe/Paris 0 9 * * *')],
    NP,
    `${budgetField}.schedule`,
    /expected exactly 5 fields/,
  ),
  refused(
    'a cron of 10,000 characters',
    [schedule(`${'1,'.repeat(5000)} * * * *`)],
    NP,
    `${budgetField}.schedule`,
    /longer than 256 characters/,
  ),
  refused(
    'an unknown cron descriptor',
    [schedule('@hourlyish')],
    NP,
    `${budgetField}.schedule`,
    /unrecognized descriptor/,
  ),
  refused(
    'a NodeClaim requirement Gt -1',
    [
      withField(nodeClaim(), ['spec', 'requirements', 0], {
        key: 'karpenter.k8s.aws/instance-cpu',
        operator: 'Gt',
        values: ['-1'],
      }),
    ],
    NC,
    'spec.requirements[0].values[0]',
    /a valid label must be/,
  ),
  refused(
    'a NodeClaim expireAfter of 1.5h',
    [withField(nodeClaim(), ['spec', 'expireAfter'], '1.5h')],
    NC,
    'spec.expireAfter',
    /whole seconds/,
  ),
  refused(
    'a NodeClaim lastPodEventTime of "1"',
    [withField(nodeClaim(), ['status', 'lastPodEventTime'], '1')],
    NC,
    'status.lastPodEventTime',
    /RFC 3339/,
  ),
  {
    name: 'a karpenter.sh/v1beta1 NodePool',
    setup: simulateYaml('v1beta1', { ...nodePool(), apiVersion: 'karpenter.sh/v1beta1' }),
    code: 2,
    stderr: [
      /NodePool gpu: apiVersion karpenter\.sh\/v1beta1 is not supported; kraftsman reads NodePool at karpenter\.sh\/v1/,
    ],
  },
  planWithBudget('a schedule that never fires, for 2562047h', {
    nodes: '0',
    schedule: '0 0 31 2 *',
    duration: '2562047h',
  }),
  planWithBudget('a leap-day schedule, for ten years', {
    nodes: '0',
    schedule: '0 0 29 2 *',
    duration: '87600h',
  }),
  planWithBudget('a schedule of 30 February, for a century', {
    nodes: '0',
    schedule: '0 0 30 2 *',
    duration: '876000h',
  }),
  planWithBudget('every minute, for 2562047h', { nodes: '0', schedule: '* * * * *', duration: '2562047h' }),
];

/** Variants of a rule that another case already runs as a child process: these run in-process (cheaper). */
const VARIANTS = new Set([
  'a Gt requirement that is not a number',
  'an unknown requirement operator',
  'a requirement on the nodepool label',
  'minValues of 51',
  'a NodePool taint with an unknown effect',
  'a nodeClassRef group with a slash',
  'a NodePool weight of 0',
  'an expireAfter without a unit',
  'a negative terminationGracePeriod',
  'an unknown consolidationPolicy',
  'a budget with an unknown reason',
  'a cron with four fields',
  'a cron range that runs backwards',
  'an unknown cron descriptor',
  'every minute, for 2562047h',
]);
export const karpenterCases: HostileCase[] = inProcessWhere(cases, VARIANTS);
