// The ramp-3400 generator: deterministic, the counts docs/benchmarks.md names, every object valid under the model's
// schemas, and a bound state kube-scheduler could have produced (fits, taints, selectors, anti-affinity, skew).
import { beforeAll, describe, expect, it } from 'vitest';
import { fleetCatalog } from '../../../local/fleet/catalog.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';
import {
  milli,
  ofKind,
  request,
  satisfies,
  schemaFailures,
  tolerates,
  type NodeObj,
  type PodObj,
  type Req,
} from './helpers.ts';

const catalog = new Map(fleetCatalog().instanceTypes.map((t) => [t.name, t]));

let objects: unknown[];
let nodes: NodeObj[];
let pods: PodObj[];
let bound: PodObj[];
let pending: PodObj[];
let nodeByName: Map<string, NodeObj>;

beforeAll(() => {
  objects = generateRamp().objects;
  nodes = ofKind<NodeObj>(objects, 'Node');
  pods = ofKind<PodObj>(objects, 'Pod');
  bound = pods.filter((p) => p.spec.nodeName);
  pending = pods.filter((p) => !p.spec.nodeName);
  nodeByName = new Map(nodes.map((n) => [n.metadata.name, n]));
});

describe('generateRamp determinism', () => {
  it('gives byte-identical output for the same seed', () => {
    const a = JSON.stringify(generateRamp({ nodes: 120, pending: 300, seed: 7 }));
    const b = JSON.stringify(generateRamp({ nodes: 120, pending: 300, seed: 7 }));
    expect(a).toBe(b);
  });
  it('gives a different fleet for a different seed', () => {
    const a = JSON.stringify(generateRamp({ nodes: 120, pending: 300, seed: 7 }));
    const b = JSON.stringify(generateRamp({ nodes: 120, pending: 300, seed: 8 }));
    expect(a).not.toBe(b);
  });
  it('rejects knobs that are not non-negative integers, naming the knob', () => {
    expect(() => generateRamp({ nodes: -1 })).toThrow(/nodes/);
    expect(() => generateRamp({ pending: 1.5 })).toThrow(/pending/);
  });
});

describe('the default ramp-3400 fleet', () => {
  it('has 1,000 nodes, 3,400 pending pods, 200 PDBs and about 24 bound pods per node', () => {
    expect(nodes).toHaveLength(1000);
    expect(pending).toHaveLength(3400);
    expect(ofKind(objects, 'PodDisruptionBudget')).toHaveLength(200);
    expect(bound.length / nodes.length).toBeGreaterThan(20);
    expect(bound.length / nodes.length).toBeLessThan(28);
  });

  it('parses every object with the shared/model schema of its kind', () => {
    expect(schemaFailures(objects)).toEqual([]);
  });

  it('spans two clouds, three zones each, and eight NodePools whose node classes are included', () => {
    const zones = (cloud: string) =>
      new Set(
        nodes
          .filter((n) => n.metadata.labels['kraftsman.dev/cloud'] === cloud)
          .map((n) => n.metadata.labels['topology.kubernetes.io/zone']),
      );
    expect([...zones('aws')].sort()).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
    expect([...zones('gcp')].sort()).toEqual(['us-central1-a', 'us-central1-b', 'us-central1-c']);
    const pools = ofKind(objects, 'NodePool');
    expect(pools).toHaveLength(8);
    const classes = new Set(
      [...ofKind(objects, 'EC2NodeClass'), ...ofKind(objects, 'GCENodeClass')].map(
        (c) => `${c.kind}/${c.metadata.name}`,
      ),
    );
    for (const p of pools) {
      const ref = (p.spec as { template: { spec: { nodeClassRef: { kind: string; name: string } } } })
        .template.spec.nodeClassRef;
      expect(classes, p.metadata.name).toContain(`${ref.kind}/${ref.name}`);
    }
    const tainted = pools.filter((p) => p.metadata.name.startsWith('team-'));
    expect(tainted).toHaveLength(2);
    for (const p of tainted)
      expect((p.spec as { template: { spec: { taints?: unknown[] } } }).template.spec.taints).toHaveLength(1);
  });

  it('labels nodes as Karpenter does and types them from the built-in catalog', () => {
    const pools = new Map(ofKind(objects, 'NodePool').map((p) => [p.metadata.name, p]));
    for (const n of nodes) {
      const l = n.metadata.labels;
      for (const key of [
        'karpenter.sh/nodepool',
        'node.kubernetes.io/instance-type',
        'topology.kubernetes.io/zone',
        'topology.kubernetes.io/region',
        'karpenter.sh/capacity-type',
        'kubernetes.io/hostname',
        'kraftsman.dev/cloud',
      ]) {
        expect(l[key], `${n.metadata.name} ${key}`).toBeTruthy();
      }
      expect(l['karpenter.sh/initialized']).toBe('true');
      expect(l['karpenter.sh/registered']).toBe('true');
      expect(l['kubernetes.io/hostname']).toBe(n.metadata.name);
      const type = catalog.get(l['node.kubernetes.io/instance-type'] as string);
      expect(type, n.metadata.name).toBeDefined();
      expect(
        type?.offerings.some(
          (o) =>
            o.zone === l['topology.kubernetes.io/zone'] && o.capacityType === l['karpenter.sh/capacity-type'],
        ),
      ).toBe(true);
      const reqs = (
        pools.get(l['karpenter.sh/nodepool'] as string)?.spec as {
          template: { spec: { requirements: Req[] } };
        }
      ).template.spec.requirements;
      for (const r of reqs) expect(satisfies(l, r), `${n.metadata.name} ${r.key} ${r.operator}`).toBe(true);
      expect(milli(n.status.allocatable.cpu)).toBe(
        milli(String(type?.capacity.cpu)) - milli(type?.overhead?.cpu as string),
      );
    }
  });

  it('binds every pod within its node allocatable (cpu, memory, GPUs, pod count)', () => {
    const used = new Map<string, { cpu: number; memory: number; gpu: number; pods: number }>();
    for (const p of bound) {
      const u = used.get(p.spec.nodeName as string) ?? { cpu: 0, memory: 0, gpu: 0, pods: 0 };
      u.cpu += request(p, 'cpu');
      u.memory += request(p, 'memory');
      u.gpu += request(p, 'nvidia.com/gpu');
      u.pods += 1;
      used.set(p.spec.nodeName as string, u);
    }
    for (const [name, u] of used) {
      const a = nodeByName.get(name)?.status.allocatable;
      expect(a, name).toBeDefined();
      expect(u.cpu, name).toBeLessThanOrEqual(milli(a?.cpu));
      expect(u.memory, name).toBeLessThanOrEqual(milli(a?.memory));
      expect(u.gpu, name).toBeLessThanOrEqual(milli(a?.['nvidia.com/gpu']));
      expect(u.pods, name).toBeLessThanOrEqual(milli(a?.pods) / 1000);
    }
  });

  it('binds pods only where they tolerate the taints and match the nodeSelector', () => {
    const violations: string[] = [];
    for (const p of bound) {
      const n = nodeByName.get(p.spec.nodeName as string) as NodeObj;
      for (const t of n.spec.taints ?? [])
        if (!tolerates(p, t))
          violations.push(`${p.metadata.name} does not tolerate ${t.key} on ${n.metadata.name}`);
      for (const [k, v] of Object.entries(p.spec.nodeSelector ?? {}))
        if (n.metadata.labels[k] !== v) violations.push(`${p.metadata.name}: ${k}≠${v}`);
    }
    expect(violations).toEqual([]);
  });

  it('keeps hostname anti-affinity and zone skew ≤ 1 among bound replicas', () => {
    const perHost = new Set<string>();
    const zoneCounts = new Map<string, Map<string, number>>();
    const spreadPods = new Map<string, PodObj>();
    for (const p of bound) {
      const app = `${p.metadata.namespace}/${p.metadata.labels?.app}`;
      if (p.spec.affinity?.podAntiAffinity) {
        const key = `${app}@${p.spec.nodeName}`;
        expect(perHost.has(key), key).toBe(false);
        perHost.add(key);
      }
      if (p.spec.topologySpreadConstraints) {
        spreadPods.set(app, p);
        const zone = nodeByName.get(p.spec.nodeName as string)?.metadata.labels[
          'topology.kubernetes.io/zone'
        ] as string;
        const counts = zoneCounts.get(app) ?? new Map<string, number>();
        counts.set(zone, (counts.get(zone) ?? 0) + 1);
        zoneCounts.set(app, counts);
      }
    }
    expect(perHost.size).toBeGreaterThan(0);
    for (const [app, counts] of zoneCounts) {
      // Domains: zones of every node the pod's nodeSelector admits (kube-scheduler ignores taints by default).
      const sel = spreadPods.get(app)?.spec.nodeSelector ?? {};
      const domains = new Set(
        nodes
          .filter((n) => Object.entries(sel).every(([k, v]) => n.metadata.labels[k] === v))
          .map((n) => n.metadata.labels['topology.kubernetes.io/zone'] as string),
      );
      const values = [...domains].map((z) => counts.get(z) ?? 0);
      expect(Math.max(...values) - Math.min(...values), app).toBeLessThanOrEqual(1);
    }
  });

  it('zone-spreads about a third of the deployments and gives every pod an owner', () => {
    const deployments = new Map<string, boolean>();
    expect(pods.filter((p) => p.metadata.ownerReferences?.length !== 1).map((p) => p.metadata.name)).toEqual(
      [],
    );
    for (const p of pods) {
      if (p.metadata.ownerReferences?.[0]?.kind === 'ReplicaSet')
        deployments.set(p.metadata.ownerReferences[0].name, Boolean(p.spec.topologySpreadConstraints));
    }
    const spread = [...deployments.values()].filter(Boolean).length / deployments.size;
    expect(spread).toBeGreaterThan(0.25);
    expect(spread).toBeLessThan(0.42);
  });

  it('leaves about a third of the nodes underutilized (under half their CPU or GPUs requested)', () => {
    const cpu = new Map<string, number>();
    const gpu = new Map<string, number>();
    for (const p of bound) {
      if (p.metadata.ownerReferences?.[0]?.kind === 'DaemonSet') continue;
      cpu.set(p.spec.nodeName as string, (cpu.get(p.spec.nodeName as string) ?? 0) + request(p, 'cpu'));
      gpu.set(
        p.spec.nodeName as string,
        (gpu.get(p.spec.nodeName as string) ?? 0) + request(p, 'nvidia.com/gpu'),
      );
    }
    const under = nodes.filter((n) => {
      const a = n.status.allocatable;
      const g = milli(a['nvidia.com/gpu']);
      return (
        Math.max(
          (cpu.get(n.metadata.name) ?? 0) / milli(a.cpu),
          g ? (gpu.get(n.metadata.name) ?? 0) / g : 0,
        ) < 0.5
      );
    }).length;
    expect(under / nodes.length).toBeGreaterThan(0.25);
    expect(under / nodes.length).toBeLessThan(0.42);
  });

  it('runs a pod of each of the 4 DaemonSets on every node', () => {
    expect(ofKind(objects, 'DaemonSet')).toHaveLength(4);
    const perNode = new Map<string, number>();
    for (const p of bound)
      if (p.metadata.ownerReferences?.[0]?.kind === 'DaemonSet')
        perNode.set(p.spec.nodeName as string, (perNode.get(p.spec.nodeName as string) ?? 0) + 1);
    expect(perNode.size).toBe(1000);
    expect([...perNode.values()].every((c) => c === 4)).toBe(true);
  });

  it('covers PDBs over deployment labels that select bound pods', () => {
    const labels = new Set(bound.map((p) => `${p.metadata.namespace}/${p.metadata.labels?.app}`));
    for (const pdb of ofKind(objects, 'PodDisruptionBudget')) {
      const app = (pdb.spec as { selector: { matchLabels: { app: string } } }).selector.matchLabels.app;
      expect(labels, pdb.metadata.name).toContain(`${pdb.metadata.namespace}/${app}`);
    }
  });
});
