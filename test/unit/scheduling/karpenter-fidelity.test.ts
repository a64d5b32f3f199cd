// Nodes and pods as Karpenter v1.14 sees them: which taints count on which nodes, DaemonSet overhead on existing
// nodes, CSI zone keys on PersistentVolumes, who counts as Volcano-scheduled, and NodePool order among equal weights.
import { describe, expect, it } from 'vitest';
import { node, nodePool, pod, simulate } from '../../fixtures/builders/index.ts';

const NOT_READY = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const UNREACHABLE = { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' };

const daemonSet = (name: string, cpu: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name, namespace: 'kube-system' },
  spec: { template: { spec: { containers: [{ name: 'd', resources: { requests: { cpu } } }], ...spec } } },
});

describe('taints of existing nodes', () => {
  it('keeps not-ready and unreachable taints on an unmanaged node (only managed uninitialized nodes drop them)', () => {
    for (const taint of [NOT_READY, UNREACHABLE]) {
      const dead = node('worker', { type: 's-16', taints: [taint] });
      const s = simulate([nodePool(), dead, pod('p')]);
      expect(s.placement('p'), taint.key).toBe('new-1');
    }
  });

  it('drops only the well-known ephemeral taints Karpenter lists (key and effect) on a managed uninitialized node', () => {
    const starting = (taints: Record<string, string>[]) => {
      const n = node('n1', { type: 's-16', pool: 'default', taints });
      (n.metadata as { labels: Record<string, string> }).labels['karpenter.sh/initialized'] = 'false';
      return n;
    };
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
    const place = (taints: Record<string, string>[]) =>
      simulate([nodePool(), starting(taints), claim, pod('p')]).placement('p');
    expect(place([NOT_READY, { key: 'readiness.k8s.io/gpu-driver', effect: 'NoSchedule' }])).toBe('n1');
    // unreachable:NoExecute is not in Karpenter's list (only unreachable:NoSchedule is)
    expect(place([{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }])).toBe('new-1');
  });
});

describe('DaemonSet overhead on existing nodes', () => {
  it('reserves, on an initialized node, the requests of compatible DaemonSets whose pod is not there yet', () => {
    // s-4 allocatable is 4 CPU: 2 bound + 1 daemon not yet running leaves 1, so a 1500m pod does not fit
    const objs = [
      nodePool(),
      node('n1', { pool: 'default', type: 's-4' }),
      pod('a', { cpu: '2', node: 'n1' }),
    ];
    expect(simulate([...objs, pod('p', { cpu: '1500m' })]).placement('p')).toBe('n1');
    expect(simulate([...objs, daemonSet('agent', '1'), pod('p', { cpu: '1500m' })]).placement('p')).toBe(
      'new-1',
    );
  });

  it('does not reserve a daemon that is already running on the node, or that the node does not admit', () => {
    const running = pod('agent-x', { cpu: '1', node: 'n1', owner: 'DaemonSet' });
    const base = [
      nodePool(),
      node('n1', { pool: 'default', type: 's-4' }),
      pod('a', { cpu: '1', node: 'n1' }),
    ];
    const p = pod('p', { cpu: '1500m' });
    expect(simulate([...base, running, daemonSet('agent', '1'), p]).placement('p')).toBe('n1');
    const elsewhere = daemonSet('agent', '2', {
      nodeSelector: { 'node.kubernetes.io/instance-type': 's-16' },
    });
    expect(simulate([...base, elsewhere, p]).placement('p')).toBe('n1');
    const tainted = node('n1', {
      pool: 'default',
      type: 's-4',
      taints: [{ key: 'gpu', effect: 'NoSchedule' }],
    });
    const tolerant = pod('p', { cpu: '1500m', spec: { tolerations: [{ key: 'gpu', operator: 'Exists' }] } });
    const rest = [nodePool(), tainted, pod('a', { cpu: '1', node: 'n1' })];
    expect(simulate([...rest, daemonSet('agent', '2'), tolerant]).placement('p')).toBe('n1');
  });

  it('reserves daemon overhead on unmanaged nodes too', () => {
    const objs = [nodePool(), node('worker', { type: 's-4' }), pod('a', { cpu: '2', node: 'worker' })];
    expect(simulate([...objs, daemonSet('agent', '1'), pod('p', { cpu: '1500m' })]).placement('p')).toBe(
      'new-1',
    );
  });
});

describe('PersistentVolume node affinity on a CSI driver zone key', () => {
  for (const key of ['topology.ebs.csi.aws.com/zone', 'topology.gke.io/zone']) {
    it(`reads ${key} as topology.kubernetes.io/zone`, () => {
      const pv = {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'pv-1' },
        spec: {
          capacity: { storage: '10Gi' },
          csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' },
          nodeAffinity: {
            required: {
              nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values: ['us-east-1b'] }] }],
            },
          },
        },
      };
      const pvc = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data', namespace: 'default' },
        spec: { volumeName: 'pv-1', resources: { requests: { storage: '10Gi' } } },
      };
      const p = pod('p', {
        spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
      });
      expect(simulate([nodePool(), pv, pvc, p]).zoneOf('p')).toBe('us-east-1b');
    });
  }
});

describe('Volcano and preemption', () => {
  it('a nominated pod with a group-name annotation but the default scheduler is preempting (ignored)', () => {
    const nominated = pod('p', {
      annotations: { 'scheduling.k8s.io/group-name': 'g' },
      status: { phase: 'Pending', nominatedNodeName: 'somewhere' },
    });
    const s = simulate([nodePool(), nominated]);
    expect(s.pods.find((x) => x.pod === 'default/p')).toMatchObject({
      result: 'ignored',
      reason: 'preempting',
    });
  });

  it('a nominated pod scheduled by volcano stays pending demand', () => {
    const volcano = pod('p', {
      spec: { schedulerName: 'volcano' },
      status: { phase: 'Pending', nominatedNodeName: 'somewhere' },
    });
    expect(simulate([nodePool(), volcano]).placement('p')).toBe('new-1');
  });
});

describe('NodePool order among equal weights in upstream mode', () => {
  it('takes the pool whose name sorts last, as OrderByWeight does (weight descending, then name descending)', () => {
    const objs = [nodePool('alpha'), nodePool('beta'), pod('p')];
    expect(simulate(objs, { upstream: true }).claimOf('p').nodePool).toBe('beta');
    const weighted = nodePool('alpha', {}, {});
    (weighted.spec as Record<string, unknown>).weight = 10;
    expect(simulate([weighted, nodePool('beta'), pod('p')], { upstream: true }).claimOf('p').nodePool).toBe(
      'alpha',
    );
  });
});
