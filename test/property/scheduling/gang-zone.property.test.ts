// One zone per gang on random fleets (docs/mechanisms/gangs.md#placement): a gang with
// `kraftsman.dev/gang-placement: zone` is placed whole in one zone (every claim pinned to it) or not at all.
// The seed is printed (seed.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { catalog, nodePool, pod, simulate } from '../../fixtures/builders/index.ts';
import { propertyRuns } from '../seed.ts';

const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
const ZONE = 'topology.kubernetes.io/zone';

const typeArb = (i: number) =>
  fc
    .record({
      gpus: fc.constantFrom(1, 4, 8),
      prices: fc.array(fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }), {
        minLength: 3,
        maxLength: 3,
      }),
    })
    .map(
      ({ gpus, prices }) =>
        ({
          name: `gpu-${i}`,
          cloud: 'aws',
          arch: 'amd64',
          capacity: {
            cpu: String(gpus * 12),
            memory: `${gpus * 96}Gi`,
            pods: '110',
            'nvidia.com/gpu': String(gpus),
          },
          offerings: ZONES.flatMap((zone, z) =>
            prices[z] === undefined
              ? []
              : [{ zone, capacityType: 'on-demand', price: prices[z], available: true }],
          ),
        }) as InstanceTypeSpec,
    );

const scenario = fc.record({
  types: fc.tuple(typeArb(0), typeArb(1), typeArb(2)),
  members: fc.array(fc.constantFrom(1, 2, 4, 8), { minLength: 1, maxLength: 5 }),
  maxNodes: fc.integer({ min: 1, max: 6 }),
});

describe('a gang that asks for one zone, on random fleets', () => {
  it('is placed whole in one zone or not at all', () => {
    fc.assert(
      fc.property(scenario, ({ types, members, maxNodes }) => {
        const group = {
          apiVersion: 'scheduling.volcano.sh/v1beta1',
          kind: 'PodGroup',
          metadata: {
            name: 'g',
            namespace: 'default',
            annotations: { 'kraftsman.dev/gang-placement': 'zone' },
          },
          spec: { minMember: members.length },
        };
        const pods = members.map((gpus, i) =>
          pod(`m-${i}`, {
            cpu: '1',
            gpu: String(gpus),
            annotations: { 'scheduling.k8s.io/group-name': 'g' },
            spec: { schedulerName: 'volcano' },
          }),
        );
        const pool = nodePool('gpu', {
          requirements: [
            { key: 'node.kubernetes.io/instance-type', operator: 'In', values: types.map((t) => t.name) },
          ],
          limits: { nodes: String(maxNodes) },
        });
        const s = simulate([pool, group, ...pods], { types: catalog(types) });
        const results = s.pods.map((p) => p.result);
        if (results.includes('new')) {
          expect(results.every((r) => r === 'new')).toBe(true);
          const zones = members.map(
            (_, i) => s.claimOf(`m-${i}`).requirements.find((r) => r.key === ZONE)?.values,
          );
          for (const z of zones) expect(z).toHaveLength(1);
          expect(new Set(zones.map((z) => z?.[0])).size).toBe(1);
        } else {
          for (const p of s.pods)
            expect(p).toMatchObject({
              result: 'unschedulable',
              reason: expect.stringContaining('gang default/g'),
            });
        }
      }),
      propertyRuns(),
    );
  });
});
