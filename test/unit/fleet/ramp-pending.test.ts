// The ramp-3400 pending backlog: Volcano gangs with their PodGroups, the unprovisionable fifth, and the knobs.
import { beforeAll, describe, expect, it } from 'vitest';
import { fleetCatalog } from '../../../local/fleet/catalog.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';
import { ofKind, satisfies, schemaFailures, type PodObj, type Req } from './helpers.ts';

const GROUP = 'scheduling.k8s.io/group-name';
const catalog = new Map(fleetCatalog().instanceTypes.map((t) => [t.name, t]));

let objects: unknown[];
let pending: PodObj[];

beforeAll(() => {
  objects = generateRamp().objects;
  pending = ofKind<PodObj>(objects, 'Pod').filter((p) => !p.spec.nodeName);
});

describe('the pending backlog', () => {
  it('is unbound and Pending', () => {
    expect(pending.filter((p) => p.status.phase !== 'Pending')).toEqual([]);
  });

  it('holds 1,500 Volcano gang members in PodGroups of 8–64 with minMember', () => {
    const members = pending.filter((p) => p.metadata.annotations?.[GROUP]);
    expect(members).toHaveLength(1500);
    const groups = new Map(
      ofKind(objects, 'PodGroup').map((g) => [`${g.metadata.namespace}/${g.metadata.name}`, g]),
    );
    const sizes = new Map<string, number>();
    expect(members.filter((p) => p.spec.schedulerName !== 'volcano')).toEqual([]);
    for (const p of members) {
      const key = `${p.metadata.namespace}/${p.metadata.annotations?.[GROUP]}`;
      sizes.set(key, (sizes.get(key) ?? 0) + 1);
    }
    expect([...sizes.keys()].filter((key) => !groups.has(key))).toEqual([]);
    for (const [key, size] of sizes) {
      expect(size, key).toBeGreaterThanOrEqual(8);
      expect(size, key).toBeLessThanOrEqual(64);
      const min = (groups.get(key)?.spec as { minMember: number }).minMember;
      expect(min).toBeGreaterThanOrEqual(1);
      expect(min).toBeLessThanOrEqual(size);
    }
  });

  it('has about a fifth asking for a GPU no pool offers', () => {
    // GPU models some NodePool admits: a catalog offering of the pool's cloud that meets every requirement.
    const offered = new Set<string>();
    for (const pool of ofKind(objects, 'NodePool')) {
      const spec = (
        pool.spec as { template: { spec: { requirements: Req[]; nodeClassRef: { group: string } } } }
      ).template.spec;
      const cloud = spec.nodeClassRef.group === 'karpenter.k8s.aws' ? 'aws' : 'gcp';
      for (const t of catalog.values()) {
        if (t.cloud !== cloud) continue;
        const admitted = t.offerings.some((o) => {
          const labels = {
            ...t.labels,
            'node.kubernetes.io/instance-type': t.name,
            'topology.kubernetes.io/zone': o.zone,
            'karpenter.sh/capacity-type': o.capacityType,
          };
          return spec.requirements.every((r) => satisfies(labels, r));
        });
        if (admitted && t.labels?.['kraftsman.dev/gpu-model'])
          offered.add(t.labels['kraftsman.dev/gpu-model']);
      }
    }
    expect(offered).toContain('h100-80gb');
    const never = pending.filter((p) => {
      const model = p.spec.nodeSelector?.['kraftsman.dev/gpu-model'];
      return model !== undefined && !offered.has(model);
    });
    expect(never).toHaveLength(680);
  });

  it('scales with the knobs', () => {
    const small = generateRamp({ nodes: 100, pending: 340, seed: 3 }).objects;
    const smallPods = ofKind<PodObj>(small, 'Pod');
    expect(ofKind(small, 'Node')).toHaveLength(100);
    expect(smallPods.filter((p) => !p.spec.nodeName)).toHaveLength(340);
    expect(smallPods.filter((p) => !p.spec.nodeName && p.metadata.annotations?.[GROUP])).toHaveLength(150);
    expect(ofKind(small, 'PodDisruptionBudget')).toHaveLength(20);
    expect(schemaFailures(small)).toEqual([]);
  });
});
