// A gang's placement through the handlers on each cloud (docs/mechanisms/gangs.md#placement): a NodePool whose node
// class names a cluster placement group (EC2NodeClass placementGroupSelector) or a compact placement policy
// (GCENodeClass compactPlacementPolicy) launches the gang in one zone, and the group / policy reaches the emulator
// on every instance; a group or policy the cloud does not know launches nothing.
import { afterEach, describe, expect, it } from 'vitest';
import type { Cloud } from '../../../shared/model/labels.ts';
import {
  ec2NodeClass,
  gceNodeClass,
  nodePool,
  pod,
  podGroup,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { provisionOnce } from '../../support/e2e/steps.ts';

const TYPES = { aws: 'g5.xlarge', gcp: 'g2-standard-4' } as const;
const MEMBERS = 3;
const POLICY_URL = 'projects/kraftsman-test/regions/us-central1/resourcePolicies/train-compact';

function placedClass(cloud: Cloud, group: string) {
  const nc = cloud === 'aws' ? ec2NodeClass('aws-placed') : gceNodeClass('gcp-placed');
  const spec = nc.spec as Record<string, unknown>;
  if (cloud === 'aws') spec.placementGroupSelector = { name: group };
  else spec.compactPlacementPolicy = group;
  return nc;
}

function gang(cloud: Cloud) {
  const name = `train-${cloud}`;
  return [
    podGroup(name, MEMBERS),
    ...Array.from({ length: MEMBERS }, (_, i) =>
      pod(`${name}-${i}`, {
        gpus: 1,
        gang: name,
        nodeSelector: { 'karpenter.sh/nodepool': `${cloud}-placed` },
      }),
    ),
  ];
}

describe.each(['aws', 'gcp'] as const)('a gang on a node class with a placement on %s', (cloud) => {
  let h: E2eHarness;
  const start = async (group: string) => {
    h = await startHarness({
      objects: [
        placedClass(cloud, group),
        nodePool(`${cloud}-placed`, cloud, { instanceTypes: [TYPES[cloud]], nodeClass: `${cloud}-placed` }),
      ],
    });
    h.ec2.world.placementGroups.set('train-pg', {
      groupName: 'train-pg',
      groupId: 'pg-0123456789abcdef0',
      strategy: 'cluster',
    });
    h.gce.world.resourcePolicies.set('us-central1/train-compact', {
      name: 'train-compact',
      region: 'us-central1',
      groupPlacementPolicy: { collocation: 'COLLOCATED', vmCount: 8 },
    });
    wireLaunchers(h);
  };
  afterEach(async () => {
    await h?.close();
  });
  const live = () =>
    cloud === 'aws'
      ? h.ec2.world.live().map((i) => ({ zone: i.zone, placement: i.placementGroup }))
      : h.gce.world.live().map((i) => ({
          zone: i.zone,
          placement: (i.resource.resourcePolicies as string[] | undefined)?.join(','),
        }));
  const zoneOfClaim = (c: Record<string, unknown>) =>
    (c.spec as { requirements: { key: string; values?: string[] }[] }).requirements.find(
      (r) => r.key === 'topology.kubernetes.io/zone',
    )?.values;

  it('launches every member into the placement, in one zone', async () => {
    await start(cloud === 'aws' ? 'train-pg' : 'train-compact');
    h.seed(gang(cloud));
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: MEMBERS, launchesInvoked: 1 });
    const launches = h.invoker.records.filter((r) => r.target === `launch-${cloud}`);
    expect(launches.map((r) => r.outcome)).toEqual(['succeeded']);
    // the scheduler pinned every claim to one zone (the node class asks for it)
    const zones = h.list('NodeClaim').map((c) => zoneOfClaim(c as unknown as Record<string, unknown>));
    expect(zones.every((z) => z?.length === 1)).toBe(true);
    expect(new Set(zones.map((z) => z?.[0])).size).toBe(1);
    const instances = live();
    expect(instances).toHaveLength(MEMBERS);
    expect(new Set(instances.map((i) => i.zone)).size).toBe(1);
    for (const i of instances) expect(i.placement).toBe(cloud === 'aws' ? 'train-pg' : POLICY_URL);
  });

  it('launches nothing when the cloud does not know the placement group or policy', async () => {
    await start('no-such-group');
    h.seed(gang(cloud));
    await provisionOnce(h);
    const launches = h.invoker.records.filter((r) => r.target === `launch-${cloud}`);
    expect(launches.map((r) => r.outcome)).not.toContain('succeeded');
    expect(live()).toEqual([]);
  });
});
