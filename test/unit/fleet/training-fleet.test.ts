// The training fleet (docs/benchmarks.md, "The training fleet"): the same seed gives the same objects; every
// object is recognized and every node fits what is bound to it; the shape the benchmark relies on — running gangs
// one member per 8-GPU node and on one cloud, pending gangs in the backlog, GPU nodes mostly full, PDBs per 5 nodes.
import { describe, expect, it } from 'vitest';
import { fleetCatalog } from '../../../local/fleet/catalog.ts';
import { quantityMilli } from '../../../shared/model/quantity.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { generateTraining } from '../../fixtures/fleet/training/index.ts';

const fleet = generateTraining({ nodes: 200, pending: 680 });
const { objects, warnings } = recognize(fleet.objects.map((value) => ({ source: 'training', value })));

describe('the training fleet', () => {
  it('is the same for the same seed, and another for another', () => {
    expect(JSON.stringify(generateTraining({ nodes: 200, pending: 680 }).objects)).toBe(
      JSON.stringify(fleet.objects),
    );
    expect(JSON.stringify(generateTraining({ nodes: 200, pending: 680, seed: 8 }).objects)).not.toBe(
      JSON.stringify(fleet.objects),
    );
  });

  it('is recognized whole, with the asked nodes, backlog and PDBs', () => {
    expect(warnings).toEqual([]);
    expect(objects.nodes).toHaveLength(200);
    expect(objects.pods.filter((p) => !p.spec.nodeName)).toHaveLength(680);
    expect(objects.pdbs).toHaveLength(40);
    expect(objects.nodePools).toHaveLength(8);
    expect(new Set(objects.nodePools.map((p) => p.spec.template.spec.nodeClassRef.kind))).toEqual(
      new Set(['EC2NodeClass', 'GCENodeClass']),
    );
    const snapshot = buildSnapshot(objects, buildInstanceTypes(fleetCatalog().instanceTypes));
    expect(snapshot.warnings).toEqual([]);
  });

  it('binds no node beyond its allocatable', () => {
    for (const node of objects.nodes) {
      const bound = objects.pods.filter((p) => p.spec.nodeName === node.metadata.name);
      for (const r of ['cpu', 'memory', 'nvidia.com/gpu']) {
        const used = bound.reduce(
          (sum, p) =>
            sum + p.spec.containers.reduce((s, c) => s + quantityMilli(c.resources?.requests?.[r] ?? '0'), 0),
          0,
        );
        expect(used, `${node.metadata.name} ${r}`).toBeLessThanOrEqual(
          quantityMilli(node.status?.allocatable?.[r] ?? '0'),
        );
      }
    }
  });

  it('runs gangs one member per 8-GPU node on one cloud, and queues gangs in the backlog', () => {
    const groupOf = (p: (typeof objects.pods)[number]) =>
      p.metadata.annotations?.['scheduling.k8s.io/group-name'];
    const running = objects.podGroups.filter((g) => g.status?.phase === 'Running');
    const queued = objects.podGroups.filter((g) => g.status?.phase === 'Pending');
    expect(running.length).toBeGreaterThan(0);
    expect(queued.length).toBeGreaterThan(0);
    const cloudOf = new Map(
      objects.nodes.map((n) => [n.metadata.name, n.metadata.labels?.['kraftsman.dev/cloud']]),
    );
    for (const g of running) {
      const members = objects.pods.filter((p) => groupOf(p) === g.metadata.name);
      expect(members).toHaveLength(g.spec.minMember ?? 0);
      const nodes = members.map((m) => m.spec.nodeName);
      expect(new Set(nodes).size, g.metadata.name).toBe(members.length);
      expect(new Set(nodes.map((n) => cloudOf.get(n ?? ''))).size, g.metadata.name).toBe(1);
    }
    for (const g of queued)
      expect(objects.pods.filter((p) => groupOf(p) === g.metadata.name && !p.spec.nodeName)).toHaveLength(
        g.spec.minMember ?? 0,
      );
  });

  it('fills most inference GPU nodes, so a candidate’s GPU pods need a new node', () => {
    const infer = objects.nodes.filter((n) => n.metadata.labels?.['fleet.example/role'] === 'infer');
    const full = infer.filter((n) => {
      const gpus = quantityMilli(n.status?.allocatable?.['nvidia.com/gpu'] ?? '0');
      const used = objects.pods
        .filter((p) => p.spec.nodeName === n.metadata.name)
        .reduce(
          (s, p) => s + quantityMilli(p.spec.containers[0]?.resources?.requests?.['nvidia.com/gpu'] ?? '0'),
          0,
        );
      return used === gpus;
    });
    expect(full.length / infer.length).toBeGreaterThan(0.6);
  });
});
