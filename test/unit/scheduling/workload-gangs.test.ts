// The Workload API's gangs (docs/mechanisms/gangs.md#the-workload-api): recognised at v1alpha2 (Kubernetes 1.36)
// and v1alpha1 (1.35), validated naming the field, and placed all or nothing exactly as Volcano PodGroups are.
import { describe, expect, it } from 'vitest';
import { recognize } from '../../../shared/state/recognize.ts';
import { nodePool, pod, simulate } from '../../fixtures/builders/index.ts';

type Obj = Record<string, unknown>;
const gang = (minCount: number) => ({ gang: { minCount } });

/** Kubernetes 1.36: a Workload of templates and the PodGroup a controller stamped out of one. */
const podGroupV2 = (name: string, policy: Obj) => ({
  apiVersion: 'scheduling.k8s.io/v1alpha2',
  kind: 'PodGroup',
  metadata: { name, namespace: 'default' },
  spec: {
    podGroupTemplateRef: { workload: { workloadName: 'train', podGroupTemplateName: 'workers' } },
    schedulingPolicy: policy,
  },
});
const workloadV2 = (groups: { name: string; policy: Obj }[]) => ({
  apiVersion: 'scheduling.k8s.io/v1alpha2',
  kind: 'Workload',
  metadata: { name: 'train', namespace: 'default' },
  spec: { podGroupTemplates: groups.map((g) => ({ name: g.name, schedulingPolicy: g.policy })) },
});
/** Kubernetes 1.35: the Workload holds its pod groups; pods name it with spec.workloadRef. */
const workloadV1 = (groups: { name: string; policy: Obj }[]) => ({
  apiVersion: 'scheduling.k8s.io/v1alpha1',
  kind: 'Workload',
  metadata: { name: 'train', namespace: 'default' },
  spec: { podGroups: groups },
});
const viaPodGroup = (name: string, group: string, cpu = '12') =>
  pod(name, { cpu, spec: { schedulingGroup: { podGroupName: group } } });
const viaWorkload = (name: string, group: string, cpu = '12', replica?: string) =>
  pod(name, {
    cpu,
    spec: {
      workloadRef: { name: 'train', podGroup: group, ...(replica ? { podGroupReplicaKey: replica } : {}) },
    },
  });
const limited = () => {
  const pool = nodePool();
  (pool.spec as Obj).limits = { cpu: '32' };
  return pool;
};

const reasonOf = (s: ReturnType<typeof simulate>, p: string) => {
  const o = s.pods.find((x) => x.pod === `default/${p}`);
  return o && 'reason' in o ? o.reason : o?.result;
};

describe('Workload API gangs are placed all or nothing, as Volcano PodGroups', () => {
  it('1.36: pods of a gang PodGroup are placed none when fewer than minCount fit, naming the gang', () => {
    const s = simulate([
      limited(),
      podGroupV2('train-0', gang(3)),
      ...['w-0', 'w-1', 'w-2'].map((n) => viaPodGroup(n, 'train-0')),
      pod('solo', { cpu: '1' }),
    ]);
    for (const m of ['w-0', 'w-1', 'w-2']) {
      expect(s.placement(m)).toBe('unschedulable');
      expect(reasonOf(s, m)).toMatch(/gang default\/podgroup:train-0 cannot be placed all or nothing/);
    }
    expect(s.nodeClaims.map((c) => c.pods)).toEqual([['default/solo']]);
  });

  it('1.36: a gang PodGroup that fits is placed whole, its claims carrying the gang', () => {
    const s = simulate([
      nodePool(),
      podGroupV2('train-0', gang(2)),
      viaPodGroup('w-0', 'train-0'),
      viaPodGroup('w-1', 'train-0'),
    ]);
    expect(s.pods.every((p) => p.result === 'new')).toBe(true);
    expect(s.nodeClaims.every((c) => c.gang === 'default/podgroup:train-0')).toBe(true);
  });

  it('1.35: pods naming a Workload pod group with a gang policy go all or nothing', () => {
    const objs = [
      limited(),
      workloadV1([{ name: 'workers', policy: gang(3) }]),
      ...['w-0', 'w-1', 'w-2'].map((n) => viaWorkload(n, 'workers')),
    ];
    const s = simulate(objs);
    expect(s.pods.every((p) => p.result === 'unschedulable')).toBe(true);
    expect(reasonOf(s, 'w-0')).toMatch(/gang default\/workload:train\/workers cannot be placed/);
    expect(s.nodeClaims).toEqual([]);
    // the same pods fit when the gang needs two of them: two are placed, the third only if it fits after
    const two = simulate([limited(), workloadV1([{ name: 'workers', policy: gang(2) }]), ...objs.slice(2)]);
    expect(two.pods.filter((p) => p.result === 'new')).toHaveLength(2);
  });

  it('a pod that still names a 1.36 Workload with spec.workloadRef is read against its templates', () => {
    const s = simulate([
      limited(),
      workloadV2([{ name: 'workers', policy: gang(3) }]),
      ...['w-0', 'w-1', 'w-2'].map((n) => viaWorkload(n, 'workers')),
    ]);
    expect(s.pods.every((p) => p.result === 'unschedulable')).toBe(true);
  });

  it('each replica key of a pod group is a gang of its own, with the group minCount', () => {
    const s = simulate([
      limited(),
      workloadV1([{ name: 'workers', policy: gang(2) }]),
      viaWorkload('a-0', 'workers', '12', 'a'),
      viaWorkload('a-1', 'workers', '12', 'a'),
      viaWorkload('b-0', 'workers', '12', 'b'),
      viaWorkload('b-1', 'workers', '12', 'b'),
    ]);
    // 32 cpu hold two 12-cpu pods: replica a (queued first) fits whole, replica b not at all
    const placed = s.pods.filter((p) => p.result === 'new').map((p) => p.pod);
    expect(placed).toHaveLength(2);
    expect(new Set(placed.map((p) => p.split('/')[1]?.[0]))).toHaveProperty('size', 1);
    expect(reasonOf(s, placed.includes('default/a-0') ? 'b-0' : 'a-0')).toMatch(
      /gang default\/workload:train\/workers\/[ab]/,
    );
  });

  it('a basic policy is no gang: its pods are placed one by one', () => {
    const s = simulate([
      limited(),
      workloadV1([{ name: 'workers', policy: { basic: {} } }]),
      ...['w-0', 'w-1', 'w-2'].map((n) => viaWorkload(n, 'workers')),
    ]);
    expect(s.pods.filter((p) => p.result === 'new')).toHaveLength(2);
    expect(s.nodeClaims.every((c) => c.gang === undefined)).toBe(true);
  });
});

describe('Workload API objects are validated naming the field', () => {
  const bad = (value: Obj) => () => recognize([{ source: 'in.yaml', value }]);

  it('a v1alpha2 gang policy needs minCount of at least 1', () => {
    expect(bad(podGroupV2('g', gang(0)))).toThrow(
      /in\.yaml: PodGroup default\/g: spec\.schedulingPolicy\.gang\.minCount: .*>=1/,
    );
  });

  it('a policy with both basic and gang (or neither) is refused', () => {
    expect(bad(podGroupV2('g', { basic: {}, gang: { minCount: 2 } }))).toThrow(
      /spec\.schedulingPolicy: exactly one of basic or gang must be set, found both/,
    );
    expect(bad(workloadV1([{ name: 'w', policy: {} }]))).toThrow(
      /Workload default\/train: spec\.podGroups\[0\]\.policy: exactly one of basic or gang must be set, found neither/,
    );
  });

  it('pod group names are DNS labels and unique; a Workload has 1 to 8 of them', () => {
    expect(bad(workloadV2([{ name: 'Workers', policy: gang(1) }]))).toThrow(
      /spec\.podGroupTemplates\[0\]\.name/,
    );
    expect(
      bad(
        workloadV1([
          { name: 'w', policy: gang(1) },
          { name: 'w', policy: gang(1) },
        ]),
      ),
    ).toThrow(/spec\.podGroups\[1\]\.name: duplicate name "w"/);
    expect(bad(workloadV1([]))).toThrow(/spec\.podGroups: /);
  });

  it("a pod's workloadRef needs its pod group; schedulingGroup needs podGroupName", () => {
    expect(bad(pod('p', { spec: { workloadRef: { name: 'train' } } }))).toThrow(
      /Pod default\/p: spec\.workloadRef\.podGroup is required/,
    );
    expect(bad(pod('p', { spec: { schedulingGroup: {} } }))).toThrow(
      /spec\.schedulingGroup\.podGroupName is required/,
    );
  });

  it('another version of scheduling.k8s.io is refused naming the versions kraftsman reads', () => {
    expect(
      bad({ ...workloadV1([{ name: 'w', policy: gang(1) }]), apiVersion: 'scheduling.k8s.io/v1beta1' }),
    ).toThrow(
      /Workload default\/train: apiVersion scheduling\.k8s\.io\/v1beta1 is not supported; kraftsman reads Workload at scheduling\.k8s\.io\/v1alpha2 or scheduling\.k8s\.io\/v1alpha1/,
    );
  });

  it("Volcano's PodGroup and the Workload API's PodGroup of one name are two objects", () => {
    const r = recognize(
      [
        podGroupV2('g', gang(2)),
        {
          apiVersion: 'scheduling.volcano.sh/v1beta1',
          kind: 'PodGroup',
          metadata: { name: 'g' },
          spec: { minMember: 2 },
        },
      ].map((value) => ({ source: 't', value })),
    );
    expect(r.objects.podGroups).toHaveLength(1);
    expect(r.objects.workloadPodGroups).toHaveLength(1);
    expect(r.warnings).toEqual([]);
  });
});
