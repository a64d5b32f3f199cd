// The ramp fleet's opt-in reserved capacity: reservations in a returned catalog, reserved nodes within them.
import { describe, expect, it } from 'vitest';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';
import { ofKind, schemaFailures, type NodeObj, type Req } from './helpers.ts';

describe('generateRamp with reserved capacity', () => {
  const fleet = generateRamp({ nodes: 400, pending: 100, seed: 2, reserved: true });
  const nodes = ofKind<NodeObj>(fleet.objects, 'Node');
  const reserved = nodes.filter((n) => n.metadata.labels['karpenter.sh/capacity-type'] === 'reserved');

  it('returns a valid catalog with reserved offerings priced as already paid', () => {
    const catalog = catalogSchema.parse(fleet.catalog);
    const offerings = catalog.instanceTypes.flatMap((t) =>
      t.offerings.filter((o) => o.capacityType === 'reserved').map((o) => ({ t, o })),
    );
    expect(offerings).toHaveLength(3);
    for (const { t, o } of offerings) {
      const od = t.offerings.find((x) => x.zone === o.zone && x.capacityType === 'on-demand');
      expect(o.reservationId).toBeTruthy();
      expect(o.price).toBeCloseTo((od?.price ?? 0) / 10_000_000, 12);
    }
  });

  it('puts training nodes into reservations without exceeding their capacity', () => {
    const catalog = catalogSchema.parse(fleet.catalog);
    expect(reserved.length).toBeGreaterThan(0);
    const used = new Map<string, number>();
    for (const n of reserved) {
      const l = n.metadata.labels;
      expect(l['karpenter.sh/nodepool']).toMatch(/^training-/);
      const type = catalog.instanceTypes.find((t) => t.name === l['node.kubernetes.io/instance-type']);
      const offering = type?.offerings.find(
        (o) => o.zone === l['topology.kubernetes.io/zone'] && o.capacityType === 'reserved',
      );
      expect(offering, n.metadata.name).toBeDefined();
      if (l['kraftsman.dev/cloud'] === 'aws')
        expect(l['karpenter.k8s.aws/capacity-reservation-id']).toBe(offering?.reservationId);
      used.set(offering?.reservationId as string, (used.get(offering?.reservationId as string) ?? 0) + 1);
    }
    for (const t of catalog.instanceTypes) {
      for (const o of t.offerings)
        if (o.reservationId)
          expect(used.get(o.reservationId) ?? 0).toBeLessThanOrEqual(o.reservationCapacity ?? 0);
    }
  });

  it('lets the training pools take reserved capacity and keeps every object valid', () => {
    for (const pool of ofKind(fleet.objects, 'NodePool').filter((p) =>
      p.metadata.name.startsWith('training-'),
    )) {
      const reqs = (pool.spec as { template: { spec: { requirements: Req[] } } }).template.spec.requirements;
      expect(reqs.find((r) => r.key === 'karpenter.sh/capacity-type')?.values).toContain('reserved');
    }
    expect(schemaFailures(fleet.objects)).toEqual([]);
  });

  it('is off by default: no catalog and no reserved nodes', () => {
    const plain = generateRamp({ nodes: 100, pending: 10, seed: 2 });
    expect(plain.catalog).toBeUndefined();
    expect(
      ofKind<NodeObj>(plain.objects, 'Node').filter(
        (n) => n.metadata.labels['karpenter.sh/capacity-type'] === 'reserved',
      ),
    ).toEqual([]);
  });
});
