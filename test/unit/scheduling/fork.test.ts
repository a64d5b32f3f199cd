// kraftsman's differences from Karpenter (docs/architecture.md), each with its upstream counterpart.
import { describe, expect, it } from 'vitest';
import { schedulingOptions } from '../../../shared/provisioning/simulate.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { solve } from '../../../shared/scheduling/scheduler.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { passView } from '../../../shared/state/scheduling-view.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { catalog, node, nodePool, pod, simulate, spread } from '../../fixtures/builders/index.ts';

const ZONE = 'topology.kubernetes.io/zone';
const group = (name: string, minMember: number) => ({
  apiVersion: 'scheduling.volcano.sh/v1beta1',
  kind: 'PodGroup',
  metadata: { name, namespace: 'default' },
  spec: { minMember },
});
const member = (name: string, g: string, cpu = '12', extra: Record<string, unknown> = {}) =>
  pod(name, {
    cpu,
    annotations: { 'scheduling.k8s.io/group-name': g },
    spec: { schedulerName: 'volcano' },
    ...extra,
  });

describe('gangs (Volcano PodGroups) are placed all or nothing', () => {
  it('places none when fewer than minMember fit, naming the gang, and rolls back their claims', () => {
    const pool = nodePool();
    (pool.spec as Record<string, unknown>).limits = { cpu: '32' };
    const s = simulate([
      pool,
      group('train', 3),
      member('t-0', 'train'),
      member('t-1', 'train'),
      member('t-2', 'train'),
      pod('solo', { cpu: '1' }),
    ]);
    for (const m of ['t-0', 't-1', 't-2']) {
      const o = s.pods.find((p) => p.pod === `default/${m}`);
      expect(o).toMatchObject({
        result: 'unschedulable',
        reason: expect.stringMatching(/gang default\/train/),
      });
    }
    expect(s.nodeClaims).toHaveLength(1);
    expect(s.claimOf('solo').pods).toEqual(['default/solo']);
  });

  it('places the gang when minMember fit and reports which claims belong to it', () => {
    const s = simulate([nodePool(), group('train', 2), member('t-0', 'train'), member('t-1', 'train')]);
    expect(s.nodeClaims.every((c) => c.gang === 'default/train')).toBe(true);
    expect(s.pods.every((p) => p.result === 'new')).toBe(true);
  });

  it('places members beyond minMember only if they fit after the minimum', () => {
    const pool = nodePool();
    (pool.spec as Record<string, unknown>).limits = { cpu: '32' };
    const s = simulate([pool, group('g', 2), member('m-0', 'g'), member('m-1', 'g'), member('m-2', 'g')]);
    expect(s.pods.filter((p) => p.result === 'new')).toHaveLength(2);
    expect(s.pods.filter((p) => p.result === 'unschedulable')).toHaveLength(1);
  });
});

describe('gang members already running count toward minMember', () => {
  it('re-places a moved member alone when the rest of its gang still runs elsewhere', () => {
    const running = (name: string, nodeName: string) =>
      pod(name, {
        cpu: '6',
        node: nodeName,
        annotations: { 'scheduling.k8s.io/group-name': 'g' },
        spec: { schedulerName: 'volcano' },
      });
    const objs = [
      nodePool(),
      group('g', 2),
      node('n1', { pool: 'default', type: 's-8' }),
      node('n2', { pool: 'default', type: 's-8' }),
      running('m-0', 'n1'),
      running('m-1', 'n2'),
    ];
    const snapshot = buildSnapshot(
      recognize(objs.map((value) => ({ source: 't', value }))).objects,
      buildInstanceTypes(catalog()),
    );
    const view = passView(snapshot);
    const moving = snapshot.nodes.find((n) => n.name === 'n1')?.pods.map((p) => view.pendingPod(p)) ?? [];
    const result = solve(view.input(moving, new Set(['n1'])), schedulingOptions(view, false));
    expect(result.placements.get('default/m-0')?.kind).toBe('new');
    // had both members moved, the gang would need both placed again
    const both = [...snapshot.nodes.flatMap((n) => n.pods)].map((p) => view.pendingPod(p));
    const pool = solve(view.input(both, new Set(['n1', 'n2'])), schedulingOptions(view, false));
    expect([...pool.placements.keys()].sort()).toEqual(['default/m-0', 'default/m-1']);
  });
});

describe('nominated pods', () => {
  const nominated = (name: string, schedulerName?: string) =>
    pod(name, {
      status: { phase: 'Pending', nominatedNodeName: 'n1' },
      spec: schedulerName ? { schedulerName } : {},
    });

  it('ignores a kube-scheduler nomination (preempting) but treats a Volcano one as demand', () => {
    const s = simulate([nodePool(), nominated('k8s'), nominated('vc', 'volcano')]);
    expect(s.pods.find((p) => p.pod === 'default/k8s')).toMatchObject({
      result: 'ignored',
      reason: 'preempting',
    });
    expect(s.placement('vc')).toBe('new-1');
  });

  it('hides the Volcano pod too in upstream mode', () => {
    const s = simulate([nodePool(), nominated('vc', 'volcano')], { upstream: true });
    expect(s.pods[0]).toMatchObject({ result: 'ignored', reason: 'preempting' });
  });
});

describe('topology domains remember which NodePool supplies them', () => {
  // pool "pinned" offers only us-east-1a; pool "other" offers 1b and 1c behind a taint the pods do not tolerate.
  const objects = () => [
    nodePool('pinned', { requirements: [{ key: ZONE, operator: 'In', values: ['us-east-1a'] }] }),
    nodePool('other', {
      taints: [{ key: 'team', value: 'b', effect: 'NoSchedule' }],
      requirements: [{ key: ZONE, operator: 'In', values: ['us-east-1b', 'us-east-1c'] }],
    }),
    ...Array.from({ length: 2 }, (_, i) =>
      pod(`w-${i}`, {
        cpu: '3',
        labels: { app: 'w' },
        spec: { nodeSelector: { 'karpenter.sh/nodepool': 'pinned' }, ...spread(ZONE, 'w') },
      }),
    ),
  ];

  it('counts only reachable domains, so a pool-pinned spread is satisfiable', () => {
    expect(simulate(objects()).pods.every((p) => p.result === 'new')).toBe(true);
  });

  it('in upstream mode the zero-pod domains of the other pool block the second replica', () => {
    expect(
      simulate(objects(), { upstream: true }).pods.filter((p) => p.result === 'unschedulable'),
    ).toHaveLength(1);
  });

  it('still counts the domains of existing nodes the pod could run on', () => {
    const existing = [
      node('n1', { pool: 'pinned', zone: 'us-east-1b', type: 's-2' }),
      pod('old', { cpu: '1500m', labels: { app: 'w' }, node: 'n1' }),
    ];
    // n1 (us-east-1b) holds one replica; the pods can run there by labels, so 1b counts: 1a gets one, then skew blocks
    const s = simulate([
      ...objects().slice(0, 2),
      ...existing,
      pod('w-0', {
        cpu: '3',
        labels: { app: 'w' },
        spec: { nodeSelector: { 'karpenter.sh/nodepool': 'pinned' }, ...spread(ZONE, 'w') },
      }),
    ]);
    expect(s.zoneOf('w-0')).toBe('us-east-1a');
  });

  it('does not count a zone whose pool offers no instance type the pod could run on', () => {
    const gpu = (name: string, cloud: 'aws' | 'gcp', model: string, zones: string[]) => ({
      name,
      cloud,
      arch: 'amd64' as const,
      labels: { 'kraftsman.dev/gpu-model': model },
      capacity: { cpu: '8', memory: '32Gi', pods: '110', 'nvidia.com/gpu': '1' },
      offerings: zones.map((zone) => ({
        zone,
        capacityType: 'on-demand' as const,
        price: 1,
        available: true,
      })),
    });
    const types = [
      gpu('a10g-1', 'aws', 'a10g', ['us-east-1a', 'us-east-1b']),
      gpu('l4-1', 'gcp', 'l4', ['us-central1-a']),
    ];
    const replicas = Array.from({ length: 3 }, (_, i) =>
      pod(`inf-${i}`, {
        cpu: '7',
        gpu: '1',
        labels: { app: 'inf' },
        spec: { nodeSelector: { 'kraftsman.dev/gpu-model': 'a10g' }, ...spread(ZONE, 'inf') },
      }),
    );
    const objs = [nodePool('aws'), nodePool('gcp', { cloud: 'gcp' }), ...replicas];
    expect(simulate(objs, { types }).pods.every((p) => p.result === 'new')).toBe(true);
    expect(
      simulate(objs, { types, upstream: true }).pods.filter((p) => p.result === 'unschedulable'),
    ).toHaveLength(1);
  });
});
