// One case (or more) per scheduling rule of issue 2, through the same path as `kraftsman simulate`.
import { describe, expect, it } from 'vitest';
import {
  antiAffinity,
  catalog,
  node,
  nodePool,
  pod,
  simulate,
  spread,
} from '../../fixtures/builders/index.ts';

const ZONE = 'topology.kubernetes.io/zone';

describe('resources and instance types', () => {
  it('picks the cheapest type that fits and orders the options cheapest first', () => {
    const s = simulate([nodePool(), pod('p', { cpu: '3' })]);
    const c = s.claimOf('p');
    expect(c.cheapest?.instanceType).toBe('s-4');
    expect(c.instanceTypes).toEqual(['s-4', 's-8', 's-16']);
  });

  it('counts DaemonSet overhead only for daemons that tolerate the pool and match the type', () => {
    const ds = (name: string, spec: Record<string, unknown>) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name, namespace: 'kube-system' },
      spec: {
        template: { spec: { containers: [{ name: 'd', resources: { requests: { cpu: '1' } } }], ...spec } },
      },
    });
    const objs = [nodePool(), pod('p', { cpu: '1500m' })];
    expect(simulate([...objs, ds('all', {})]).claimOf('p').cheapest?.instanceType).toBe('s-4');
    // a daemon restricted to s-16 does not burden s-2
    const onlyBig = ds('big', { nodeSelector: { 'node.kubernetes.io/instance-type': 's-16' } });
    expect(simulate([...objs, onlyBig]).claimOf('p').cheapest?.instanceType).toBe('s-2');
    // a daemon that does not tolerate the pool's taint is not counted
    const tainted = nodePool('default', { taints: [{ key: 'gpu', effect: 'NoSchedule' }] });
    const tolerant = pod('p', { cpu: '1500m', spec: { tolerations: [{ key: 'gpu', operator: 'Exists' }] } });
    expect(simulate([tainted, tolerant, ds('all', {})]).claimOf('p').cheapest?.instanceType).toBe('s-2');
  });

  it('respects NodePool limits and filters types that would exceed them', () => {
    const limited = nodePool('default', {}, {});
    (limited.spec as Record<string, unknown>).limits = { cpu: '8' };
    const s = simulate([limited, pod('a', { cpu: '6' }), pod('b', { cpu: '6' })]);
    expect(s.pods.filter((p) => p.result === 'new')).toHaveLength(1);
    expect(s.pods.find((p) => p.result === 'unschedulable')).toMatchObject({
      reason: expect.stringMatching(/limits/),
    });
  });

  it('filters instance types per pool by the pool requirements (Gt on a label)', () => {
    const types = catalog().map((t) => ({ ...t, labels: { 'example.com/cpu': t.capacity.cpu as string } }));
    const pool = nodePool('default', {
      requirements: [{ key: 'example.com/cpu', operator: 'Gt', values: ['4'] }],
    });
    expect(simulate([pool, pod('p')], { types }).claimOf('p').instanceTypes).toEqual(['s-8', 's-16']);
  });

  it('enforces minValues on the remaining instance types', () => {
    const pool = nodePool('default', {
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists', minValues: 3 }],
    });
    expect(simulate([pool, pod('p', { cpu: '7' })]).placement('p')).toBe('unschedulable');
    expect(simulate([pool, pod('q', { cpu: '3' })]).claimOf('q').instanceTypes).toHaveLength(3);
  });
});

describe('node selection', () => {
  it('honours nodeSelector', () => {
    expect(
      simulate([nodePool(), pod('p', { spec: { nodeSelector: { [ZONE]: 'us-east-1c' } } })]).zoneOf('p'),
    ).toBe('us-east-1c');
  });

  it('uses the first satisfiable required OR term and never relaxes the last', () => {
    const terms = (...zones: string[]) => ({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: zones.map((z) => ({
              matchExpressions: [{ key: ZONE, operator: 'In', values: [z] }],
            })),
          },
        },
      },
    });
    const s = simulate([
      nodePool(),
      pod('or', { spec: terms('eu-west-1a', 'us-east-1b') }),
      pod('strict', { spec: terms('eu-west-1a') }),
    ]);
    expect(s.zoneOf('or')).toBe('us-east-1b');
    expect(s.placement('strict')).toBe('unschedulable');
  });

  it('treats the heaviest preferred term as required and relaxes it when it cannot be met', () => {
    const pref = (zone: string) => ({
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: ['us-east-1a'] }] },
            },
            { weight: 50, preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] } },
          ],
        },
      },
    });
    expect(simulate([nodePool(), pod('p', { spec: pref('us-east-1c') })]).zoneOf('p')).toBe('us-east-1c');
    expect(simulate([nodePool(), pod('p', { spec: pref('mars-1a') })]).zoneOf('p')).toBe('us-east-1a');
  });

  it('requires tolerations for pool taints', () => {
    const pool = nodePool('default', { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] });
    expect(simulate([pool, pod('no')]).placement('no')).toBe('unschedulable');
    expect(
      simulate([
        pool,
        pod('yes', { spec: { tolerations: [{ key: 'gpu', operator: 'Equal', value: 'true' }] } }),
      ]).placement('yes'),
    ).toBe('new-1');
  });

  it('ignores startup taints of in-flight capacity but not the taints of an initialized node', () => {
    const claim = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: {
        name: 'inflight',
        labels: {
          'karpenter.sh/nodepool': 'default',
          'node.kubernetes.io/instance-type': 's-16',
          [ZONE]: 'us-east-1a',
          'karpenter.sh/capacity-type': 'on-demand',
        },
      },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [],
        startupTaints: [{ key: 'init', effect: 'NoSchedule' }],
        taints: [{ key: 'init', effect: 'NoSchedule' }],
      },
    };
    expect(simulate([nodePool(), claim, pod('p')]).placement('p')).toBe('inflight');
    const tainted = node('n1', {
      pool: 'default',
      type: 's-16',
      taints: [{ key: 'init', effect: 'NoSchedule' }],
    });
    expect(simulate([nodePool(), tainted, pod('p')]).placement('p')).toBe('new-1');
  });

  it('treats PreferNoSchedule as soft: used only after every other preference is relaxed', () => {
    const soft = node('n1', {
      pool: 'default',
      type: 's-16',
      taints: [{ key: 'spare', effect: 'PreferNoSchedule' }],
    });
    expect(simulate([nodePool(), soft, pod('p')]).placement('p')).toBe('new-1');
    const capped = nodePool();
    (capped.spec as Record<string, unknown>).limits = { cpu: '0' };
    expect(simulate([capped, soft, pod('p')]).placement('p')).toBe('n1');
  });

  it('ignores ephemeral taints (not-ready, unregistered) of capacity that is still initializing', () => {
    const starting = node('n1', {
      type: 's-16',
      taints: [
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
        { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
      ],
    });
    const labels = (starting.metadata as { labels: Record<string, string> }).labels;
    labels['karpenter.sh/nodepool'] = 'default';
    const claim = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'c1', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [],
      },
      status: { nodeName: 'n1', conditions: [{ type: 'Initialized', status: 'False' }] },
    };
    expect(simulate([nodePool(), starting, claim, pod('p')]).placement('p')).toBe('n1');
  });

  it('places pods on existing nodes first, then in-flight claims, then new claims', () => {
    const s = simulate([
      nodePool(),
      node('n1', { pool: 'default', type: 's-4' }),
      pod('a', { cpu: '3' }),
      pod('b', { cpu: '3' }),
      pod('c', { cpu: '1500m' }),
    ]);
    expect(s.placement('a')).toBe('n1');
    expect(s.placement('b')).toBe('new-1');
    expect(s.placement('c')).toBe('new-1');
  });

  it('prefers the heavier NodePool, and among equal weights the cheapest offering (upstream: name descending)', () => {
    const types = [
      ...catalog(),
      {
        name: 'g-4',
        cloud: 'gcp' as const,
        arch: 'amd64' as const,
        capacity: { cpu: '4', memory: '16Gi', pods: '110' },
        offerings: [
          { zone: 'us-central1-a', capacityType: 'on-demand' as const, price: 0.05, available: true },
        ],
      },
    ];
    const aws = nodePool('b-aws');
    const gcp = nodePool('a-gcp', { cloud: 'gcp' });
    expect(simulate([aws, gcp, pod('p', { cpu: '3' })], { types }).claimOf('p').nodePool).toBe('a-gcp');
    expect(
      simulate([aws, gcp, pod('p', { cpu: '3' })], { types, upstream: true }).claimOf('p').nodePool,
    ).toBe('b-aws');
    const heavy = nodePool('b-aws', {}, {});
    (heavy.spec as Record<string, unknown>).weight = 50;
    expect(simulate([heavy, gcp, pod('p', { cpu: '3' })], { types }).claimOf('p').nodePool).toBe('b-aws');
  });
});

describe('host ports and volumes', () => {
  it('never puts two pods with the same host port on one node', () => {
    const hp = {
      containers: [
        {
          name: 'c',
          resources: { requests: { cpu: '100m' } },
          ports: [{ containerPort: 80, hostPort: 8080 }],
        },
      ],
    };
    const s = simulate([nodePool(), pod('a', { spec: hp }), pod('b', { spec: hp })]);
    expect(s.placement('a')).not.toBe(s.placement('b'));
  });

  it('follows a bound volume to its zone', () => {
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: { volumeName: 'pv-1' },
    };
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-1' },
      spec: {
        csi: { driver: 'ebs.csi.aws.com' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: ZONE, operator: 'In', values: ['us-east-1b'] }] },
            ],
          },
        },
      },
    };
    const p = pod('db', { spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } });
    expect(simulate([nodePool(), pvc, pv, p]).zoneOf('db')).toBe('us-east-1b');
  });

  it('respects CSI attach limits of existing nodes', () => {
    const sc = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'gp3' },
      provisioner: 'ebs.csi.aws.com',
      // unset is Immediate (the API server's default), and Karpenter ignores pods with unbound Immediate claims
      volumeBindingMode: 'WaitForFirstConsumer',
    };
    const pvc = (n: string) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: n, namespace: 'default' },
      spec: { storageClassName: 'gp3' },
    });
    const csi = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: 'n1' },
      spec: { drivers: [{ name: 'ebs.csi.aws.com', allocatable: { count: 1 } }] },
    };
    const vp = (n: string) =>
      pod(n, { cpu: '100m', spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: n } }] } });
    const s = simulate([
      nodePool(),
      sc,
      pvc('a'),
      pvc('b'),
      csi,
      node('n1', { pool: 'default', type: 's-16' }),
      vp('a'),
      vp('b'),
    ]);
    expect([s.placement('a'), s.placement('b')].filter((x) => x === 'n1')).toHaveLength(1);
  });
});

describe('topology', () => {
  const apps = (n: number, app: string, spec: Record<string, unknown>, cpu = '1') =>
    Array.from({ length: n }, (_, i) => pod(`${app}-${i}`, { cpu, labels: { app }, spec }));

  it('spreads DoNotSchedule across zones within maxSkew', () => {
    const s = simulate([nodePool(), ...apps(6, 'web', spread(ZONE, 'web'))]);
    const counts = new Map<string, number>();
    for (let i = 0; i < 6; i++)
      counts.set(s.zoneOf(`web-${i}`) as string, (counts.get(s.zoneOf(`web-${i}`) as string) ?? 0) + 1);
    expect([...counts.values()]).toEqual([2, 2, 2]);
  });

  it('counts existing pods in their zones', () => {
    const existing = [
      node('n1', { pool: 'default', zone: 'us-east-1a', type: 's-2' }),
      pod('old', { cpu: '1500m', labels: { app: 'web' }, node: 'n1' }),
    ];
    const s = simulate([nodePool(), ...existing, ...apps(2, 'web', spread(ZONE, 'web'))]);
    expect([s.zoneOf('web-0'), s.zoneOf('web-1')].sort()).toEqual(['us-east-1b', 'us-east-1c']);
  });

  it('spreads over hostnames and capacity types', () => {
    const h = simulate([nodePool(), ...apps(3, 'h', spread('kubernetes.io/hostname', 'h'), '100m')]);
    expect(new Set(['h-0', 'h-1', 'h-2'].map((p) => h.placement(p))).size).toBe(3);
    const ct = simulate([nodePool(), ...apps(2, 'c', spread('karpenter.sh/capacity-type', 'c'), '3')]);
    expect(new Set(['c-0', 'c-1'].map((p) => ct.claimOf(p).cheapest?.capacityType)).size).toBe(2);
  });

  it('relaxes ScheduleAnyway but not DoNotSchedule', () => {
    const pinned = nodePool('default', {
      requirements: [{ key: ZONE, operator: 'In', values: ['us-east-1a'] }],
    });
    const withMin = (when: string) => spread(ZONE, 'w', { whenUnsatisfiable: when, minDomains: 3 });
    // minDomains is for DoNotSchedule only (the API server refuses it with ScheduleAnyway)
    const soft = simulate([
      pinned,
      ...apps(2, 'w', spread(ZONE, 'w', { whenUnsatisfiable: 'ScheduleAnyway' }), '3'),
    ]);
    expect(soft.pods.every((p) => p.result === 'new')).toBe(true);
    const hard = simulate([pinned, ...apps(2, 'w', withMin('DoNotSchedule'), '3')]);
    expect(hard.pods.filter((p) => p.result === 'unschedulable')).toHaveLength(1);
  });

  it('ignores the pod node affinity for counting when nodeAffinityPolicy is Ignore', () => {
    const existing = [
      node('n1', { pool: 'default', zone: 'us-east-1c', type: 's-2', labels: { tier: 'x' } }),
      pod('old', { cpu: '1500m', labels: { app: 'a' }, node: 'n1' }),
    ];
    const sel = (policy: string) => ({
      nodeSelector: { [ZONE]: 'us-east-1a' },
      ...spread(ZONE, 'a', { nodeAffinityPolicy: policy }),
    });
    // Honor: only us-east-1a counts for the pod, so it schedules; Ignore: the 1c pod and empty 1b count too.
    expect(
      simulate([nodePool(), ...existing, pod('p', { labels: { app: 'a' }, spec: sel('Honor') })]).placement(
        'p',
      ),
    ).toBe('new-1');
    expect(
      simulate([nodePool(), ...existing, pod('p', { labels: { app: 'a' }, spec: sel('Ignore') })]).placement(
        'p',
      ),
    ).toBe('new-1');
  });

  it('counts tainted domains only under nodeTaintsPolicy Honor when the pod does not tolerate them', () => {
    const tainted = nodePool('tainted', {
      taints: [{ key: 'x', effect: 'NoSchedule' }],
      requirements: [{ key: ZONE, operator: 'In', values: ['us-east-1c'] }],
    });
    const open = nodePool('open', {
      requirements: [{ key: ZONE, operator: 'In', values: ['us-east-1a', 'us-east-1b'] }],
    });
    const honor = simulate(
      [open, tainted, ...apps(4, 't', spread(ZONE, 't', { nodeTaintsPolicy: 'Honor' }), '3')],
      { upstream: true },
    );
    expect(honor.pods.every((p) => p.result === 'new')).toBe(true);
    const ignore = simulate([open, tainted, ...apps(4, 't', spread(ZONE, 't'), '3')], { upstream: true });
    expect(ignore.pods.filter((p) => p.result === 'unschedulable').length).toBeGreaterThan(0);
  });

  it('separates pods with hostname anti-affinity and honours anti-affinity of running pods', () => {
    const s = simulate([nodePool(), ...apps(3, 'db', antiAffinity('kubernetes.io/hostname', 'db'), '100m')]);
    expect(new Set(['db-0', 'db-1', 'db-2'].map((p) => s.placement(p))).size).toBe(3);
    const running = [
      node('n1', { pool: 'default', type: 's-16' }),
      pod('guard', {
        labels: { app: 'guard' },
        node: 'n1',
        spec: antiAffinity('kubernetes.io/hostname', 'web'),
      }),
    ];
    const inv = simulate([
      nodePool(),
      ...running,
      pod('web-0', { labels: { app: 'web' } }),
      pod('other', {}),
    ]);
    expect(inv.placement('web-0')).not.toBe('n1');
    expect(inv.placement('other')).toBe('n1');
  });

  it('co-locates pods with required pod affinity, across namespaces chosen by namespaceSelector', () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'data', labels: { team: 'data' } } };
    const existing = [
      node('n1', { pool: 'default', type: 's-16', zone: 'us-east-1b' }),
      pod('cache', { ns: 'data', labels: { app: 'cache' }, node: 'n1' }),
    ];
    const affinity = (nsSel: boolean) => ({
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            {
              topologyKey: ZONE,
              labelSelector: { matchLabels: { app: 'cache' } },
              ...(nsSel ? { namespaceSelector: { matchLabels: { team: 'data' } } } : {}),
            },
          ],
        },
      },
    });
    const big = (n: string, nsSel: boolean) => pod(n, { cpu: '15500m', spec: affinity(nsSel) });
    expect(simulate([nodePool(), ns, ...existing, big('p', true)]).zoneOf('p')).toBe('us-east-1b');
    // without the namespace selector the term looks in the pod's own namespace, where nothing matches
    expect(simulate([nodePool(), ns, ...existing, big('p', false)]).placement('p')).toBe('unschedulable');
  });

  it('co-locates a self-affine group in one zone', () => {
    const aff = {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: ZONE, labelSelector: { matchLabels: { app: 'g' } } },
          ],
        },
      },
    };
    const s = simulate([nodePool(), ...apps(3, 'g', aff, '3')]);
    expect(new Set(['g-0', 'g-1', 'g-2'].map((p) => s.zoneOf(p))).size).toBe(1);
  });
});

describe('ordering and retries', () => {
  it('places larger pods first so smaller ones fill the gaps', () => {
    const s = simulate([
      nodePool(),
      node('n1', { pool: 'default', type: 's-4' }),
      pod('small', { cpu: '1' }),
      pod('large', { cpu: '3' }),
    ]);
    expect(s.placement('large')).toBe('n1');
  });

  it('gives the same answer whatever the order of the input objects', () => {
    const objs = [
      nodePool(),
      node('n1', { pool: 'default', type: 's-8' }),
      ...Array.from({ length: 6 }, (_, i) =>
        pod(`p${i}`, { cpu: `${(i % 3) + 1}`, labels: { app: 'x' }, spec: spread(ZONE, 'x') }),
      ),
    ];
    const a = simulate(objs);
    const b = simulate([...objs].reverse());
    expect(b.pods.map((p) => [p.pod, p.result]).sort()).toEqual(a.pods.map((p) => [p.pod, p.result]).sort());
    expect(b.nodeClaims.map((c) => c.cheapest)).toEqual(a.nodeClaims.map((c) => c.cheapest));
  });

  it('retries a pod that failed once other pods made progress (affinity to a pod later in the queue)', () => {
    const aff = {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: ZONE, labelSelector: { matchLabels: { app: 'leader' } } },
          ],
        },
      },
    };
    const s = simulate([
      nodePool(),
      pod('follower', { cpu: '3', spec: aff }),
      pod('leader', {
        cpu: '1',
        labels: { app: 'leader' },
        spec: { nodeSelector: { [ZONE]: 'us-east-1c' } },
      }),
    ]);
    expect(s.zoneOf('follower')).toBe('us-east-1c');
  });

  it('relaxes preferred pod anti-affinity when it cannot be met, but honours it when it can', () => {
    const pref = {
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                topologyKey: 'kubernetes.io/hostname',
                labelSelector: { matchLabels: { app: 'p' } },
              },
            },
          ],
        },
      },
    };
    const two = [
      pod('p-0', { labels: { app: 'p' }, spec: pref }),
      pod('p-1', { labels: { app: 'p' }, spec: pref }),
    ];
    const apart = simulate([nodePool(), ...two]);
    expect(apart.placement('p-0')).not.toBe(apart.placement('p-1'));
    const limited = nodePool();
    (limited.spec as Record<string, unknown>).limits = { cpu: '4' };
    const together = simulate([limited, ...two]);
    expect(together.placement('p-0')).toBe(together.placement('p-1'));
  });
});
