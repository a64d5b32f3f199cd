// The CRDs kraftsman ships are no looser than the model where a value reaches a Node: every value at the
// boundary of the taint and requirement rules is admitted by the API server (the emulator validates custom
// resources against the CRD's openAPIV3Schema) exactly when shared/model parses it — so the API server refuses
// what kraftsman could not read (docs/mechanisms/identity.md#invalid-objects).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeApiEmulator, defaultCrds, type KubeObject } from '../../../local/kube-api/index.ts';
import { KINDS } from '../../../shared/model/objects.ts';

const LABEL_KEYS = [
  'k',
  'example.com/k',
  'example.com/K_1.x',
  'Example.com/k', // an upper-case domain
  'a b',
  '-k',
  'k-',
  'example.com/',
  '/k',
  'a/b/c',
  'k'.repeat(316),
  'k'.repeat(317),
];
const TAINT_VALUES = [...LABEL_KEYS, 'UPPER', 'a_b.c', '', '1'];
const REQUIREMENT_VALUES = [
  'g5.xlarge',
  '',
  'a b',
  'a/b',
  '-a',
  'a-',
  'A_b.C',
  'a'.repeat(63),
  'a'.repeat(64),
];

const claim = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] }],
    ...spec,
  },
});
const pool = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] }],
        ...spec,
      },
    },
  },
});

describe('the CRDs and the model agree at the boundary', () => {
  const emulator = new KubeApiEmulator({ crds: defaultCrds() });
  let n = 0;
  beforeAll(async () => {
    await emulator.start();
  });
  afterAll(async () => {
    await emulator.close();
  });

  /** [the API server admits it, the model parses it] for one object. */
  function verdicts(obj: KubeObject): [boolean, boolean] {
    const named = { ...obj, metadata: { name: `x${++n}` } };
    let admitted = true;
    try {
      emulator.seed([named]);
    } catch {
      admitted = false;
    }
    const kind = obj.kind as 'NodeClaim' | 'NodePool';
    return [admitted, KINDS[kind].schema.safeParse(named).success];
  }

  const cases: [string, (v: string) => KubeObject][] = [
    ['NodeClaim taint key', (v) => claim('c', { taints: [{ key: v, effect: 'NoSchedule' }] })],
    ['NodeClaim taint value', (v) => claim('c', { taints: [{ key: 'k', value: v, effect: 'NoSchedule' }] })],
    [
      'NodeClaim startup taint value',
      (v) => claim('c', { startupTaints: [{ key: 'k', value: v, effect: 'NoExecute' }] }),
    ],
    ['NodeClaim requirement key', (v) => claim('c', { requirements: [{ key: v, operator: 'Exists' }] })],
    ['NodePool taint key', (v) => pool('p', { taints: [{ key: v, effect: 'NoSchedule' }] })],
    ['NodePool taint value', (v) => pool('p', { taints: [{ key: 'k', value: v, effect: 'NoSchedule' }] })],
    ['NodePool requirement key', (v) => pool('p', { requirements: [{ key: v, operator: 'Exists' }] })],
  ];

  it.each(cases)('%s: admitted exactly when the model parses it', (_, make) => {
    const values = _.includes('value') ? TAINT_VALUES : LABEL_KEYS;
    const seen = values.map((v) => [v, ...verdicts(make(v))] as const);
    for (const [v, admitted, parsed] of seen) expect(admitted, JSON.stringify(v)).toBe(parsed);
    // The boundary is crossed both ways: some values pass, some do not.
    expect(new Set(seen.map(([, a]) => a))).toEqual(new Set([true, false]));
  });

  it.each([
    [
      'NodeClaim',
      (v: string) => claim('c', { requirements: [{ key: 'example.com/k', operator: 'In', values: [v] }] }),
    ],
    [
      'NodePool',
      (v: string) => pool('p', { requirements: [{ key: 'example.com/k', operator: 'In', values: [v] }] }),
    ],
  ])('%s requirement values: admitted exactly when the model parses them', (_, make) => {
    const seen = REQUIREMENT_VALUES.map((v) => [v, ...verdicts(make(v))] as const);
    for (const [v, admitted, parsed] of seen) expect(admitted, JSON.stringify(v)).toBe(parsed);
    expect(new Set(seen.map(([, a]) => a))).toEqual(new Set([true, false]));
  });

  it('a taint value the model refuses is refused by the API server (the older CRD admitted it)', () => {
    expect(verdicts(claim('c', { taints: [{ key: 'k', value: 'a b', effect: 'NoSchedule' }] }))).toEqual([
      false,
      false,
    ]);
  });
});
