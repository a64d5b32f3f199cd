// The karpenter-mix generator: Karpenter's benchmark fifths, its 400 fake instance types, valid objects, determinism.
import { describe, expect, it } from 'vitest';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { generateKarpenterMix, mixKinds } from '../../fixtures/fleet/karpenter-mix.ts';
import { ofKind, schemaFailures, type PodObj } from './helpers.ts';

type MixPod = PodObj & {
  spec: PodObj['spec'] & {
    affinity?: {
      podAffinity?: { requiredDuringSchedulingIgnoredDuringExecution: Array<{ topologyKey: string }> };
      podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution: Array<{ topologyKey: string }> };
    };
  };
};

describe('generateKarpenterMix', () => {
  const mix = generateKarpenterMix({ pods: 1003 });
  const pods = ofKind<MixPod>(mix.objects, 'Pod');

  it('splits the pods in fifths, the remainder generic, in Karpenter order', () => {
    const kinds = mixKinds(1003);
    expect(kinds.filter((k) => k === 'generic')).toHaveLength(200 + 3);
    for (const k of ['zone-spread', 'hostname-spread', 'zone-affinity', 'hostname-anti-affinity'] as const)
      expect(kinds.filter((x) => x === k)).toHaveLength(200);
    expect(kinds.slice(200, 400).every((k) => k === 'zone-spread')).toBe(true);
    const spreadKeys = pods.flatMap((p) => p.spec.topologySpreadConstraints ?? []).map((c) => c.topologyKey);
    expect(spreadKeys.filter((k) => k === 'topology.kubernetes.io/zone')).toHaveLength(200);
    expect(spreadKeys.filter((k) => k === 'kubernetes.io/hostname')).toHaveLength(200);
    expect(
      pods.filter(
        (p) =>
          p.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution[0]?.topologyKey ===
          'topology.kubernetes.io/zone',
      ),
    ).toHaveLength(200);
    expect(
      pods.filter(
        (p) =>
          p.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution[0]?.topologyKey ===
          'kubernetes.io/hostname',
      ),
    ).toHaveLength(200);
  });

  it('uses maxSkew 1 DoNotSchedule spreads and self-affinity, as the benchmark does', () => {
    for (const c of pods.flatMap((p) => p.spec.topologySpreadConstraints ?? []))
      expect(c).toMatchObject({ maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' });
    for (const p of pods.filter((x) => x.spec.affinity?.podAffinity)) {
      const term = p.spec.affinity?.podAffinity
        ?.requiredDuringSchedulingIgnoredDuringExecution[0] as unknown as {
        labelSelector: { matchLabels: Record<string, string> };
      };
      expect(term.labelSelector.matchLabels).toEqual(p.metadata.labels);
    }
  });

  it('requests CPU from {100m, 250m, 500m, 1, 1.5} and memory from 100Mi to 4Gi', () => {
    const cpus = new Set(pods.map((p) => p.spec.containers[0]?.resources?.requests?.cpu));
    const mems = new Set(pods.map((p) => p.spec.containers[0]?.resources?.requests?.memory));
    expect([...cpus].sort()).toEqual(['1000m', '100m', '1500m', '250m', '500m']);
    expect([...mems].sort()).toEqual(['100Mi', '1024Mi', '2048Mi', '256Mi', '4096Mi', '512Mi']);
  });

  it('has one NodePool, its node class, no nodes, and only pending pods', () => {
    expect(ofKind(mix.objects, 'NodePool')).toHaveLength(1);
    expect(ofKind(mix.objects, 'EC2NodeClass')).toHaveLength(1);
    expect(ofKind(mix.objects, 'Node')).toHaveLength(0);
    expect(pods.filter((p) => p.spec.nodeName || p.status.phase !== 'Pending')).toEqual([]);
    expect(schemaFailures(mix.objects)).toEqual([]);
  });

  it("carries Karpenter's 400 fake instance types in a valid catalog", () => {
    const catalog = catalogSchema.parse(mix.catalog);
    expect(catalog.instanceTypes).toHaveLength(400);
    const t9 = catalog.instanceTypes[9];
    expect(t9).toMatchObject({ name: 'fake-it-9', capacity: { cpu: '10', memory: '20Gi', pods: '100' } });
    expect(t9?.offerings.map((o) => `${o.zone}/${o.capacityType}`)).toEqual([
      'test-zone-1/spot',
      'test-zone-2/spot',
      'test-zone-1/on-demand',
      'test-zone-2/on-demand',
      'test-zone-3/on-demand',
    ]);
    expect(t9?.offerings[0]?.price).toBeCloseTo(0.1 * 10 + (0.1 * 20 * 1024 ** 3) / 1e9, 9);
  });

  it('is deterministic per seed and differs across seeds', () => {
    const a = JSON.stringify(generateKarpenterMix({ pods: 500, seed: 4 }));
    expect(JSON.stringify(generateKarpenterMix({ pods: 500, seed: 4 }))).toBe(a);
    expect(JSON.stringify(generateKarpenterMix({ pods: 500, seed: 5 }))).not.toBe(a);
  });

  it('rejects a pod count that is not a non-negative integer', () => {
    expect(() => generateKarpenterMix({ pods: -5 })).toThrow(/pods/);
  });
});
