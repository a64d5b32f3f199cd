// Measure 5 of bench:pass: the negative cache over 10 passes on an unchanged fleet whose candidates all
// simulate to no-ops (ramp-3400 derives its NodeClaims, which carry no version and so no fingerprint; this
// fleet has real claims and resource versions). Hit rate in observe-only mode; simulation time with skipping off vs on.
import { performance } from 'node:perf_hooks';
import { runPass } from '../../shared/disruption/pass.ts';
import type { WalkHints } from '../../shared/disruption/method.ts';
import { passOptions } from '../../shared/disruption/types.ts';
import { node, NOW, nodePool, pod, snapshotOf, ZONES } from '../unit/disruption/fixtures.ts';

type Obj = Record<string, unknown>;

function fleet(nodes: number): Obj[] {
  const pool = nodePool('default');
  Object.assign(pool.metadata as Obj, { uid: 'pool-uid', generation: 1 });
  const out: Obj[] = [pool];
  for (let i = 0; i < nodes; i++) {
    const name = `n${String(i).padStart(4, '0')}`;
    // Zones alternate and pods are pinned to theirs, so any batch needs a node per zone: multi-node finds
    // nothing and every single-node candidate simulates to a no-op.
    const zone = ZONES[i % ZONES.length] as string;
    const n = node(name, { type: 's-4', zone });
    Object.assign(n.metadata as Obj, { resourceVersion: '1' });
    const p = pod(`${name}-app`, {
      node: name,
      cpu: '3',
      nodeSelector: { 'topology.kubernetes.io/zone': zone },
    });
    Object.assign(p.metadata as Obj, { resourceVersion: '1' });
    out.push(n, p, {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: {
        name: `claim-${name}`,
        resourceVersion: '1',
        creationTimestamp: '2026-09-01T08:00:00Z',
        labels: { 'karpenter.sh/nodepool': 'default' },
      },
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
      status: {
        nodeName: name,
        lastPodEventTime: '2026-09-01T08:05:00Z',
        conditions: [{ type: 'Initialized', status: 'True' }],
      },
    });
  }
  return out;
}

export function negativeCacheBench(nodes = 150): {
  nodes: number;
  hitRate: number;
  offMs: number;
  onMs: number;
} {
  const snapshot = snapshotOf(fleet(nodes));
  const stopwatch = { elapsedMs: () => performance.now() };
  const run = (skip: boolean) => {
    let memory: WalkHints | undefined;
    let hits = 0;
    let lookups = 0;
    let simulation = 0;
    for (let i = 0; i < 10; i++) {
      const now = new Date(NOW.getTime() + i * 10_000);
      const r = runPass({
        snapshot,
        now,
        options: passOptions({ skipUnchangedNegatives: skip }),
        stopwatch,
        hints: memory,
      });
      memory = r.memory;
      simulation += r.timings.simulation + r.timings.construction;
      const t = r.negativeTally;
      if (t) {
        hits += t.byResult.hit;
        lookups += Object.values(t.byResult).reduce((a, b) => a + b, 0);
      }
    }
    return { hitRate: hits / Math.max(1, lookups), simulation };
  };
  const off = run(false);
  const on = run(true);
  return { nodes, hitRate: off.hitRate, offMs: off.simulation, onMs: on.simulation };
}
