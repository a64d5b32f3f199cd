// Gang-aware disruption (docs/mechanisms/gangs.md, "Disruption"): a running gang is never split by a voluntary
// disruption: single-node skips its nodes (`gang`), drift takes them all or waits, multi-node never cuts a gang,
// validation refuses a split, the census says `gang`; the PodGroup's opt-out and a gang below its minimum do not.
import { describe, expect, it } from 'vitest';
import { runCensus } from '../../../shared/disruption/census.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { validateCommand } from '../../../shared/disruption/validation.ts';
import { podGroupSchema } from '../../../shared/model/podgroup.ts';
import {
  gangMember,
  names,
  node,
  NOW,
  nodePool,
  plan,
  pod,
  podGroup,
  reasonOf,
  snapshotOf,
} from './fixtures.ts';

type Obj = Record<string, unknown>;
const HASH = { 'karpenter.sh/nodepool-hash': 'new', 'karpenter.sh/nodepool-hash-version': 'v3' };
const OLD_HASH = { 'karpenter.sh/nodepool-hash': 'old', 'karpenter.sh/nodepool-hash-version': 'v3' };

/** One worker per node (required hostname anti-affinity), as training jobs run: no two fit one replacement. */
function worker(name: string, at: string, group = 'train', cpu = '3'): Obj {
  const p = gangMember(pod(name, { node: at, cpu, labels: { job: group } }), group);
  (p.spec as Obj).affinity = {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { job: group } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    },
  };
  return p;
}

/** `count` s-16 nodes g1…gN, each running one 3-CPU worker of gang `train`: each alone would be replaced by an s-4. */
function gangFleet(
  count = 4,
  nodeAnnotations: (i: number) => Record<string, string> | undefined = () => undefined,
) {
  const out: Obj[] = [];
  for (let i = 1; i <= count; i++) {
    out.push(node(`g${i}`, { type: 's-16', annotations: nodeAnnotations(i) }), worker(`w${i}`, `g${i}`));
  }
  return out;
}

const withAnnotations = (o: Obj, annotations: Record<string, string>): Obj => ({
  ...o,
  metadata: { ...(o.metadata as Obj), annotations },
});

describe('single-node consolidation and a running gang', () => {
  it('proposes no command for a 4-node gang with minMember 4 and skips each node with reason gang', () => {
    const r = plan([nodePool('default'), podGroup('train', 4), ...gangFleet()]);
    expect(r.commands).toEqual([]);
    for (const n of ['g1', 'g2', 'g3', 'g4']) expect(reasonOf(r, n)).toBe('gang');
  });

  it('treats members of a PodGroup the snapshot lacks as a running gang (minimum 1, as provisioning does)', () => {
    const r = plan([nodePool('default'), ...gangFleet()]);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'g1')).toBe('gang');
  });

  it('takes the nodes one at a time when the PodGroup opts out (kraftsman.dev/gang-disruption: per-node)', () => {
    const group = withAnnotations(podGroup('train', 4), { 'kraftsman.dev/gang-disruption': 'per-node' });
    const r = plan([nodePool('default'), group, ...gangFleet()]);
    expect(r.method).toBe('single-node-consolidation');
    expect(names(r)).toHaveLength(1);
    expect(names(r)[0]).toHaveLength(1);
  });

  it('judges each node on its own when the gang runs below its minimum (it is not running)', () => {
    // Simulated alone, the moved worker cannot be placed: a gang below its minimum places none (gangs.md).
    const r = plan([nodePool('default'), podGroup('train', 6), ...gangFleet()]);
    for (const n of ['g1', 'g2', 'g3', 'g4']) expect(reasonOf(r, n)).toBe('unschedulable-pods');
  });

  it('leaves a gang whose members all run on one node to the usual rules', () => {
    const r = plan([
      nodePool('default'),
      podGroup('solo', 2),
      node('s1', { type: 's-16' }),
      gangMember(pod('a', { node: 's1', cpu: '1' }), 'solo'),
      gangMember(pod('b', { node: 's1', cpu: '1' }), 'solo'),
    ]);
    expect(names(r)).toEqual([['s1']]);
  });
});

describe('a Workload API gang (Kubernetes 1.36 PodGroup) is a running gang too', () => {
  const k8sGroup = (annotations?: Record<string, string>): Obj => ({
    apiVersion: 'scheduling.k8s.io/v1alpha2',
    kind: 'PodGroup',
    metadata: { name: 'train-0', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: {
      podGroupTemplateRef: { workload: { workloadName: 'train', podGroupTemplateName: 'workers' } },
      schedulingPolicy: { gang: { minCount: 4 } },
    },
  });
  /** The 1.36 workers: the same pods, naming their PodGroup with spec.schedulingGroup instead of Volcano's annotation. */
  const k8sFleet = () =>
    gangFleet().map((o) => {
      if (o.kind !== 'Pod') return o;
      const meta = { ...(o.metadata as Obj) };
      delete meta.annotations;
      const spec: Obj = { ...(o.spec as Obj), schedulingGroup: { podGroupName: 'train-0' } };
      delete spec.schedulerName;
      return { ...o, metadata: meta, spec };
    });

  it('skips each node with reason gang', () => {
    const r = plan([nodePool('default'), k8sGroup(), ...k8sFleet()]);
    expect(r.commands).toEqual([]);
    for (const n of ['g1', 'g2', 'g3', 'g4']) expect(reasonOf(r, n)).toBe('gang');
  });

  it('takes the nodes one at a time when the PodGroup opts out', () => {
    const r = plan([
      nodePool('default'),
      k8sGroup({ 'kraftsman.dev/gang-disruption': 'per-node' }),
      ...k8sFleet(),
    ]);
    expect(r.method).toBe('single-node-consolidation');
    expect(names(r)).toHaveLength(1);
  });
});

describe('emptiness and a running gang', () => {
  it('does not take alone a gang node whose members cost nothing to evict (negative priority)', () => {
    const cheap = (name: string, at: string) => {
      const p = worker(name, at);
      (p.spec as Obj).priority = -(2 ** 25); // eviction cost 0: Karpenter would call the node empty
      return p;
    };
    const r = plan([
      nodePool('default'),
      podGroup('train', 2),
      node('g1', { type: 's-16' }),
      cheap('w1', 'g1'),
      node('g2', { type: 's-16' }),
      cheap('w2', 'g2'),
    ]);
    for (const c of names(r)) expect(c.includes('g1')).toBe(c.includes('g2'));
    expect(r.commands.map((c) => c.method)).not.toContain('emptiness');
    expect(reasonOf(r, 'g1')).toBe('gang');
  });
});

describe('drift and a running gang', () => {
  const pool = () => nodePool('default', { annotations: HASH });
  const current = (i: number) => (i === 2 ? OLD_HASH : HASH);

  it('replaces every node of the gang in one command when one of them drifted, the drifted one first', () => {
    const r = plan([pool(), podGroup('train', 4), ...gangFleet(4, current)]);
    expect(r.method).toBe('drift');
    expect(names(r)).toEqual([['g2', 'g1', 'g3', 'g4']]);
    expect(r.commands[0]?.replacements.length).toBeGreaterThan(0);
  });

  it('waits with reason gang when the budget cannot take the whole gang at once', () => {
    const limited = nodePool('default', { annotations: HASH, budgets: [{ nodes: '2' }] });
    const r = plan([limited, podGroup('train', 4), ...gangFleet(4, current)]);
    expect(r.commands.filter((c) => c.method === 'drift')).toEqual([]);
    expect(reasonOf(r, 'g2')).toBe('gang');
  });

  it('waits with reason gang when another of the gang’s nodes may not be disrupted', () => {
    const r = plan([
      pool(),
      podGroup('train', 4),
      ...gangFleet(4, (i) => (i === 3 ? { ...HASH, 'karpenter.sh/do-not-disrupt': 'true' } : current(i))),
    ]);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'g2')).toBe('gang');
    expect(reasonOf(r, 'g3')).toBe('do-not-disrupt');
  });

  it('replaces only the drifted node of an opted-out gang', () => {
    const group = withAnnotations(podGroup('train', 4), { 'kraftsman.dev/gang-disruption': 'per-node' });
    const r = plan([pool(), group, ...gangFleet(4, current)]);
    expect(names(r)).toEqual([['g2']]);
  });
});

describe('multi-node consolidation and a running gang', () => {
  /**
   * Two busy gang nodes (g1 cheap to move, g2 holding 9 CPUs) among idle ones: Karpenter's prefix order puts g1
   * near the front and g2 last, and every prefix without g2 fits one replacement.
   */
  function mixed(): Obj[] {
    return [
      nodePool('default'),
      podGroup('pair', 2),
      node('g1', { type: 's-16' }),
      gangMember(pod('p1', { node: 'g1', cpu: '1' }), 'pair'),
      node('g2', { type: 's-16' }),
      gangMember(pod('p2', { node: 'g2', cpu: '9' }), 'pair'),
      ...['a1', 'a2', 'a3'].flatMap((n) => [
        node(n, { type: 's-16' }),
        pod(`${n}-app`, { node: n, cpu: '1' }),
      ]),
    ];
  }

  it('never proposes a batch that takes one node of a running gang and leaves the other', () => {
    const r = plan(mixed());
    for (const c of names(r)) expect(c.includes('g1')).toBe(c.includes('g2'));
    expect(r.commands.length).toBeGreaterThan(0);
  });

  it('moves the gang’s nodes together when the batch covers them all', () => {
    const r = plan([
      nodePool('default'),
      podGroup('pair', 2),
      node('g1', { type: 's-16' }),
      gangMember(pod('p1', { node: 'g1', cpu: '1' }), 'pair'),
      node('g2', { type: 's-16' }),
      gangMember(pod('p2', { node: 'g2', cpu: '1' }), 'pair'),
      node('x', { type: 's-16' }),
      pod('x-app', { node: 'x', cpu: '1' }),
    ]);
    expect(r.method).toBe('multi-node-consolidation');
    expect(names(r)[0]).toEqual(expect.arrayContaining(['g1', 'g2', 'x']));
  });
});

describe('validation at admission', () => {
  it('refuses a command that would split a running gang, naming the gang and the nodes left', () => {
    const snapshot = snapshotOf([nodePool('default'), podGroup('train', 4), ...gangFleet()]);
    const v = validateCommand(
      { snapshot, now: NOW, options: passOptions({}) },
      { method: 'single-node-consolidation', candidates: [{ name: 'g1' }], replacements: [] },
    );
    expect(v).toEqual({
      valid: false,
      failure: 'gang',
      detail: 'gang default/train would be split: its nodes g2, g3, g4 stay',
    });
  });

  it('admits a drift command that carries the whole gang, its undrifted nodes included', () => {
    const snapshot = snapshotOf([
      nodePool('default', { annotations: HASH }),
      podGroup('train', 4),
      ...gangFleet(4, (i) => (i === 2 ? OLD_HASH : HASH)),
    ]);
    const v = validateCommand(
      { snapshot, now: NOW, options: passOptions({}) },
      { method: 'drift', candidates: ['g2', 'g1', 'g3', 'g4'].map((name) => ({ name })), replacements: [] },
    );
    expect(v).toEqual({ valid: true });
  });

  it('refuses a drift command of the gang none of whose nodes has drifted any more', () => {
    const snapshot = snapshotOf([
      nodePool('default', { annotations: HASH }),
      podGroup('train', 4),
      ...gangFleet(),
    ]);
    const v = validateCommand(
      { snapshot, now: NOW, options: passOptions({}) },
      { method: 'drift', candidates: ['g2', 'g1', 'g3', 'g4'].map((name) => ({ name })), replacements: [] },
    );
    expect(v).toEqual({ valid: false, failure: 'churn', detail: 'no candidate has drifted any more' });
  });
});

describe('the census and a running gang', () => {
  it('lists each node of the gang with decision none and reason gang', () => {
    const snapshot = snapshotOf([nodePool('default'), podGroup('train', 4), ...gangFleet()]);
    const r = runCensus(snapshot, NOW, passOptions({}));
    const gang = r.candidates.filter((e) => e.node.startsWith('g'));
    expect(gang.map((e) => [e.node, e.decision, e.reason])).toEqual(
      ['g1', 'g2', 'g3', 'g4'].map((n) => [n, 'none', 'gang']),
    );
  });
});

describe('the opt-out annotation', () => {
  it('refuses an unknown value, naming the annotation', () => {
    const bad = withAnnotations(podGroup('train', 4), { 'kraftsman.dev/gang-disruption': 'pernode' });
    const r = podGroupSchema.safeParse(bad);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('kraftsman.dev/gang-disruption');
    expect(JSON.stringify(r.error?.issues)).toContain('expected one of whole, per-node');
  });
});
