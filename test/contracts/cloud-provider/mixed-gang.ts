// The mixed-shape part of the CloudProvider contract (docs/mechanisms/gangs.md#mixed-shapes): each member of a
// gang launches on its own claim's instance types with its own node class, members of one shape share one type
// in one zone, and a shape that falls short takes the whole gang down with it (the shapes already launched are
// terminated or deleted), leaking nothing.
import { expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import type { NodeClass } from '../../../shared/model/nodeclass.ts';
import { InsufficientCapacityError } from '../../../shared/ports/cloud-provider/errors.ts';
import type { GangLaunchRequest } from '../../../shared/ports/cloud-provider/index.ts';
import type { ContractSubject } from './contract.ts';

/** The subject's node class under another name, carrying `role: gpu` as an EC2 tag or a Compute Engine label. */
function gpuClass(nc: NodeClass): NodeClass {
  const spec = nc.spec as Record<string, unknown>;
  const key = nc.kind === 'EC2NodeClass' ? 'tags' : 'labels';
  return {
    ...nc,
    metadata: { ...nc.metadata, name: `${nc.metadata.name}-gpu` },
    spec: { ...spec, [key]: { ...((spec[key] as Record<string, string> | undefined) ?? {}), role: 'gpu' } },
  } as NodeClass;
}

export function mixedGangContract(
  subject: () => ContractSubject,
  types: () => readonly InstanceTypeSpec[],
  claimOf: (name: string, instanceTypes: readonly string[]) => NodeClaim,
): void {
  /** A master that may only be `cheap` and workers that may only be `dear`, with their own node class. */
  const mixed = (gang: string, workers: number): GangLaunchRequest => {
    const s = subject();
    return {
      gang,
      members: [
        { claim: claimOf(`${gang}-master`, [s.cheap]), nodeClass: s.nodeClass, instanceTypes: types() },
        ...Array.from({ length: workers }, (_, i) => ({
          claim: claimOf(`${gang}-worker-${i}`, [s.dear]),
          nodeClass: gpuClass(s.nodeClass),
          instanceTypes: types(),
        })),
      ],
    };
  };

  it('launches each member of a mixed gang with its own claim’s type and node class', async () => {
    const s = subject();
    const { instances } = await s.provider.createGang(mixed('mixed-1', 2));
    expect(instances.map((x) => x.claim)).toEqual(['mixed-1-master', 'mixed-1-worker-0', 'mixed-1-worker-1']);
    expect(instances.map((x) => x.instance.instanceType)).toEqual([s.cheap, s.dear, s.dear]);
    expect(instances.map((x) => x.instance.tags['role'])).toEqual([undefined, 'gpu', 'gpu']);
    const [, ...workers] = instances;
    expect(new Set(workers.map((x) => x.instance.zone)).size).toBe(1);
    const listed = await s.provider.list();
    for (const x of instances) {
      const found = listed.find((i) => i.providerId === x.instance.providerId);
      expect(found?.nodeClaim).toBe(x.claim);
      expect(found?.instanceType).toBe(x.instance.instanceType);
    }
    expect(await s.liveInstances()).toBe(3);
  });

  it('returns the same mixed gang, each claim its own instance, when the launch is retried', async () => {
    const s = subject();
    const request = mixed('mixed-2', 2);
    const first = await s.provider.createGang(request);
    const second = await s.provider.createGang(request);
    expect(second.instances.map((x) => [x.claim, x.instance.providerId, x.instance.instanceType])).toEqual(
      first.instances.map((x) => [x.claim, x.instance.providerId, x.instance.instanceType]),
    );
    expect(await s.liveInstances()).toBe(3);
  });

  it('rolls back the shapes that launched when another shape falls short, leaking nothing', async () => {
    const s = subject();
    // The two workers' shape launches first (the largest shape goes first); no `cheap` is left for the master.
    for (const zone of s.zones) s.setCapacity(s.cheap, zone, 'on-demand', 0);
    const error = await s.provider.createGang(mixed('mixed-3', 2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    const refused = (error as InsufficientCapacityError).offerings.map((o) => o.instanceType);
    expect(refused).toContain(s.cheap);
    expect(refused).not.toContain(s.dear);
    expect(await s.liveInstances()).toBe(0);
    expect(await s.provider.list()).toEqual([]);
  });
}
