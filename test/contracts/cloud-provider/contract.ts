// The one CloudProvider contract suite (docs/conventions.md): run against the fake and against each real
// adapter talking to its emulator through the real SDK client.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CapacityType } from '../../../shared/model/labels.ts';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import type { NodeClass } from '../../../shared/model/nodeclass.ts';
import {
  InsufficientCapacityError,
  InstanceNotFoundError,
} from '../../../shared/ports/cloud-provider/errors.ts';
import {
  providerId,
  type CloudProvider,
  type ProviderId,
  uniformGang,
} from '../../../shared/ports/cloud-provider/index.ts';
import { identityContract, type PlantRule } from './identity.ts';
import { mixedGangContract } from './mixed-gang.ts';

export interface ContractSubject {
  readonly provider: CloudProvider;
  readonly nodeClass: NodeClass;
  /** Two GPU types of this cloud, `cheap` cheaper than `dear` everywhere, both offered in both zones. */
  readonly cheap: string;
  readonly dear: string;
  readonly zones: readonly [string, string];
  /** Prices the backend was seeded with, which instanceTypes() must report. */
  readonly prices: readonly {
    instanceType: string;
    zone: string;
    capacityType: CapacityType;
    price: number;
  }[];
  setCapacity(type: string, zone: string, capacityType: CapacityType, count: number): void;
  /** Live instances in the backend, tagged or not: what a leak would show up in. */
  liveInstances(): Promise<number>;
  /** The tag (EC2) or label (GCE) key carrying the deployment id, and the id this provider was given. */
  readonly deploymentKey: string;
  readonly deployment: string;
  /** Places a live instance for `claim` in the backend, outside the provider, that breaks `rule`. */
  plant(rule: PlantRule, claim: string, zone: string): Promise<ProviderId>;
  /**
   * From now until reset, the backend launches what fits of a gang even below the minimum the request asked for
   * (EC2 MinTargetCapacity, Compute Engine minCount), as a request that asked for less than the gang, or a service
   * that did not hold to it, would leave it: all or nothing must then be the adapter's own check.
   */
  relaxGangMinimum(): void;
  /** Brings the backend back to empty with unlimited capacity. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

let claimSeq = 0;
export function claim(name: string, requirements: NodeClaim['spec']['requirements'] = []): NodeClaim {
  claimSeq += 1;
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, uid: `uid-${claimSeq}`, labels: { 'karpenter.sh/nodepool': 'gpu' } },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        ...requirements,
      ],
      taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
    },
  };
}

export function cloudProviderContract(label: string, start: () => Promise<ContractSubject>): void {
  describe(`CloudProvider contract: ${label}`, () => {
    let s: ContractSubject;
    let types: readonly InstanceTypeSpec[];
    const onlyOurs = (): NodeClaim['spec']['requirements'] => [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [s.cheap, s.dear] },
    ];
    const zeroEverywhere = (type: string): void => {
      for (const zone of s.zones) s.setCapacity(type, zone, 'on-demand', 0);
    };

    beforeAll(async () => {
      s = await start();
    });
    afterAll(async () => {
      await s.close();
    });
    beforeEach(async () => {
      await s.reset();
      types = await s.provider.instanceTypes(s.nodeClass);
    });

    it('lists both instance types with an offering per zone and the seeded prices', () => {
      const names = types.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining([s.cheap, s.dear]));
      for (const p of s.prices) {
        const offering = types
          .find((t) => t.name === p.instanceType)
          ?.offerings.find((o) => o.zone === p.zone && o.capacityType === p.capacityType);
        expect(offering?.price, `${p.instanceType} ${p.zone} ${p.capacityType}`).toBeCloseTo(p.price, 6);
      }
    });

    it('launches the cheapest allowed offering, tagged with the claim and its NodePool', async () => {
      const { instance, unavailableOfferings } = await s.provider.create({
        claim: claim('launch-1', onlyOurs()),
        nodeClass: s.nodeClass,
        instanceTypes: types,
      });
      expect(instance.instanceType).toBe(s.cheap);
      expect(instance.capacityType).toBe('on-demand');
      expect(s.zones).toContain(instance.zone);
      expect(instance.nodeClaim).toBe('launch-1');
      expect(instance.nodePool).toBe('gpu');
      expect(unavailableOfferings).toEqual([]);
      expect((await s.provider.get(instance.providerId)).providerId).toBe(instance.providerId);
      expect((await s.provider.list()).map((i) => i.providerId)).toContain(instance.providerId);
    });

    it('honours a zone requirement', async () => {
      const req = [
        ...onlyOurs(),
        { key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: [s.zones[1]] },
      ];
      const { instance } = await s.provider.create({
        claim: claim('zoned-1', req),
        nodeClass: s.nodeClass,
        instanceTypes: types,
      });
      expect(instance.zone).toBe(s.zones[1]);
    });

    it('returns the same instance when a launch is retried for the same claim', async () => {
      const request = { claim: claim('retry-1', onlyOurs()), nodeClass: s.nodeClass, instanceTypes: types };
      const first = await s.provider.create(request);
      const second = await s.provider.create(request);
      expect(second.instance.providerId).toBe(first.instance.providerId);
      expect(await s.liveInstances()).toBe(1);
    });

    it('falls back to the next offering and reports the refused ones as unavailable', async () => {
      zeroEverywhere(s.cheap);
      const { instance, unavailableOfferings } = await s.provider.create({
        claim: claim('fallback-1', onlyOurs()),
        nodeClass: s.nodeClass,
        instanceTypes: types,
      });
      expect(instance.instanceType).toBe(s.dear);
      expect(unavailableOfferings.map((o) => `${o.instanceType}/${o.zone}/${o.capacityType}`).sort()).toEqual(
        s.zones.map((z) => `${s.cheap}/${z}/on-demand`).sort(),
      );
    });

    it('throws InsufficientCapacityError naming every refused offering when nothing has capacity', async () => {
      zeroEverywhere(s.cheap);
      zeroEverywhere(s.dear);
      const error = await s.provider
        .create({ claim: claim('none-1', onlyOurs()), nodeClass: s.nodeClass, instanceTypes: types })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InsufficientCapacityError);
      expect((error as InsufficientCapacityError).offerings).toHaveLength(4);
      expect(await s.liveInstances()).toBe(0);
    });

    it('launches a gang on one type in one zone, one instance per claim', async () => {
      const claims = ['gang-a', 'gang-b', 'gang-c'].map((n) => claim(n, onlyOurs()));
      const result = await s.provider.createGang(uniformGang('ns/job-1', claims, s.nodeClass, types));
      expect(result.instances.map((x) => x.claim)).toEqual(['gang-a', 'gang-b', 'gang-c']);
      expect(new Set(result.instances.map((x) => x.instance.providerId)).size).toBe(3);
      expect(new Set(result.instances.map((x) => `${x.instance.instanceType}/${x.instance.zone}`)).size).toBe(
        1,
      );
      const listed = await s.provider.list();
      for (const x of result.instances)
        expect(listed.find((i) => i.providerId === x.instance.providerId)?.nodeClaim).toBe(x.claim);
    });

    it('moves a gang to the zone that can hold all of it', async () => {
      zeroEverywhere(s.dear);
      s.setCapacity(s.cheap, s.zones[0], 'on-demand', 2);
      s.setCapacity(s.cheap, s.zones[1], 'on-demand', 3);
      const claims = ['move-a', 'move-b', 'move-c'].map((n) => claim(n, onlyOurs()));
      const result = await s.provider.createGang(uniformGang('ns/job-2', claims, s.nodeClass, types));
      expect(result.instances.every((x) => x.instance.zone === s.zones[1])).toBe(true);
    });

    it('launches nothing and leaks nothing when only part of a gang fits', async () => {
      zeroEverywhere(s.dear);
      s.setCapacity(s.cheap, s.zones[0], 'on-demand', 2);
      s.setCapacity(s.cheap, s.zones[1], 'on-demand', 1);
      const claims = ['part-a', 'part-b', 'part-c'].map((n) => claim(n, onlyOurs()));
      const error = await s.provider
        .createGang(uniformGang('ns/job-3', claims, s.nodeClass, types))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InsufficientCapacityError);
      expect((error as InsufficientCapacityError).offerings.length).toBeGreaterThan(0);
      expect(await s.liveInstances()).toBe(0);
      expect(await s.provider.list()).toEqual([]);
    });

    it('launches nothing and leaks nothing when the backend would hand back part of a gang below its minimum', async () => {
      s.relaxGangMinimum();
      zeroEverywhere(s.dear);
      s.setCapacity(s.cheap, s.zones[0], 'on-demand', 2);
      s.setCapacity(s.cheap, s.zones[1], 'on-demand', 1);
      const claims = ['short-a', 'short-b', 'short-c'].map((n) => claim(n, onlyOurs()));
      const error = await s.provider
        .createGang(uniformGang('ns/job-short', claims, s.nodeClass, types))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InsufficientCapacityError);
      expect(await s.liveInstances()).toBe(0);
      expect(await s.provider.list()).toEqual([]);
    });

    it('returns the same gang when a gang launch is retried', async () => {
      const request = uniformGang(
        'ns/job-4',
        ['again-a', 'again-b'].map((n) => claim(n, onlyOurs())),
        s.nodeClass,
        types,
      );
      const first = await s.provider.createGang(request);
      const second = await s.provider.createGang(request);
      expect(second.instances.map((x) => x.instance.providerId).sort()).toEqual(
        first.instances.map((x) => x.instance.providerId).sort(),
      );
      expect(await s.liveInstances()).toBe(2);
    });

    it('deletes an instance, after which get and delete report NotFound', async () => {
      const { instance } = await s.provider.create({
        claim: claim('delete-1', onlyOurs()),
        nodeClass: s.nodeClass,
        instanceTypes: types,
      });
      await s.provider.delete(instance.providerId);
      await expect(s.provider.get(instance.providerId)).rejects.toBeInstanceOf(InstanceNotFoundError);
      await expect(s.provider.delete(instance.providerId)).rejects.toBeInstanceOf(InstanceNotFoundError);
      expect((await s.provider.list()).map((i) => i.providerId)).not.toContain(instance.providerId);
    });

    it('reports NotFound for an instance that never existed', async () => {
      const { instance } = await s.provider.create({
        claim: claim('ghost-neighbour', onlyOurs()),
        nodeClass: s.nodeClass,
        instanceTypes: types,
      });
      // A providerID in the provider's own project (GCE) that names nothing.
      const ghost =
        s.provider.cloud === 'aws'
          ? `aws:///${s.zones[0]}/i-0123456789abcdef0`
          : instance.providerId.replace(/\/[^/]+\/[^/]+$/, `/${s.zones[0]}/ghost`);
      await expect(s.provider.get(providerId(ghost))).rejects.toBeInstanceOf(InstanceNotFoundError);
    });

    identityContract(
      () => s,
      () => types,
      (name) => claim(name, onlyOurs()),
    );

    mixedGangContract(
      () => s,
      () => types,
      (name, only) =>
        claim(name, [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [...only] }]),
    );

    it('lists only live instances of its cluster', async () => {
      const a = await s.provider.create({
        claim: claim('list-a', onlyOurs()),
        nodeClass: s.nodeClass,
        instanceTypes: types,
      });
      const b = await s.provider.create({
        claim: claim('list-b', onlyOurs()),
        nodeClass: s.nodeClass,
        instanceTypes: types,
      });
      await s.provider.delete(a.instance.providerId);
      expect((await s.provider.list()).map((i) => i.providerId)).toEqual([b.instance.providerId]);
    });
  });
}
