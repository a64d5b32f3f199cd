// Every terminate proves, at the moment it acts, that the instance is this deployment's
// (docs/mechanisms/identity.md#instances), through the lifecycle handler against the emulators and DynamoDB Local:
// a Node naming another project's VM, another deployment of the same cluster name in the same project, and an EC2
// instance from before deployment ids (no deployment tag) that the emulator — like an IAM policy on the cluster tag
// alone — would let go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Closer } from '../../../functions/compose/local.ts';
import { builtinLookup } from '../../../shared/loop/prices.ts';
import { REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import type { CloudProvider } from '../../../shared/ports/cloud-provider/index.ts';
import { GCE_ZONES, nodePool, startHarness, type E2eHarness } from '../../support/e2e/index.ts';
import {
  claimNaming,
  drainingNode,
  ec2Running,
  gceRunning,
  refusalEvents,
  secondDeployment,
} from '../../support/e2e/identity.ts';
import { lifecycleOnce } from '../../support/e2e/steps.ts';
import { placeEc2Instance, placeGceInstance } from '../../support/placed-instances.ts';
import { claim as contractClaim } from '../../contracts/cloud-provider/contract.ts';
import { ec2NodeClass } from '../../integration/clouds/ec2-setup.ts';
import { gceNodeClass } from '../../integration/clouds/gce-setup.ts';

const MIN = 60_000;
const OTHER_PROJECT = 'someone-elses-project';
const ZONE = GCE_ZONES[0];
const refused = (h: E2eHarness, reason: string, action = 'terminate') =>
  h.metrics.total(REFUSAL_METRIC, { action, reason });
const names = (h: E2eHarness, kind: string) => h.list(kind).map((o) => String(o.metadata.name));

describe('terminations refuse instances that are not this deployment’s', () => {
  let h: E2eHarness;
  const closer = new Closer();
  beforeAll(async () => {
    h = await startHarness({
      otherGceProjects: [OTHER_PROJECT],
      registerNodes: false,
      objects: [nodePool('gcp-gpu', 'gcp'), nodePool('aws-gpu', 'aws')],
    });
  });
  afterAll(async () => {
    await closer.close();
    await h?.close();
  });

  it('a Node and NodeClaim naming another project’s VM: nothing is deleted, the refusal is counted and recorded on the Node', async () => {
    const ours = { 'kraftsman-cluster': h.clusterName, 'kraftsman-deployment': await h.deployment() };
    // The same zone and name in both projects: reading the providerID as "zone/name in my project" deletes ours.
    const foreign = placeGceInstance(h.gce.worldOf(OTHER_PROJECT), {
      zone: ZONE,
      name: 'shared-name',
      labels: ours,
    });
    const mine = placeGceInstance(h.gce.world, {
      zone: ZONE,
      name: 'shared-name',
      labels: { ...ours, 'kraftsman-nodeclaim': 'another-claim' },
      claim: 'another-claim',
    });
    h.seed([
      drainingNode(h, 'foreign-node', foreign, 'gcp-gpu'),
      claimNaming('foreign-claim', foreign, 'gcp-gpu'),
      claimNaming('another-claim', mine, 'gcp-gpu'),
    ]);
    h.clock.advance(2 * MIN);

    await lifecycleOnce(h);

    expect(gceRunning(h.gce.worldOf(OTHER_PROJECT), ZONE, 'shared-name')).toBe(true);
    expect(gceRunning(h.gce.world, ZONE, 'shared-name')).toBe(true);
    expect(names(h, 'Node')).toContain('foreign-node');
    expect(names(h, 'NodeClaim')).toContain('foreign-claim');
    expect(refused(h, 'foreign-project')).toBeGreaterThanOrEqual(1);
    expect(refused(h, 'foreign-project', 'delete-nodeclaim')).toBeGreaterThanOrEqual(1);
    expect(refusalEvents(h, 'Node', 'foreign-node')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('foreign-project') }),
    ]);
    expect(refusalEvents(h, 'NodeClaim', 'foreign-claim')).not.toEqual([]);
    expect(h.logger.entries.some((e) => e.fields?.providerID === foreign)).toBe(true);
    // Not a transient failure to retry into success: the next run refuses again, and still deletes nothing.
    await lifecycleOnce(h);
    expect(gceRunning(h.gce.world, ZONE, 'shared-name')).toBe(true);
    expect(names(h, 'Node')).toContain('foreign-node');
  });

  it.each(['gcp', 'aws'] as const)(
    '%s: another deployment of the same cluster name keeps its instances through this deployment’s garbage collection',
    async (cloud) => {
      const second = await secondDeployment(h, closer);
      expect(await second.deployment()).not.toBe(await h.deployment());
      const theirs: CloudProvider = cloud === 'gcp' ? second.gce : second.ec2;
      const nodeClass = cloud === 'gcp' ? gceNodeClass() : ec2NodeClass();
      const types = await theirs.instanceTypes(nodeClass, {
        prices: async () => builtinLookup(cloud),
      });
      const wanted = cloud === 'gcp' ? 'g2-standard-4' : 'g5.xlarge';
      const { instance } = await theirs.create({
        claim: contractClaim(`their-claim-${cloud}`, [
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [wanted] },
        ]),
        nodeClass,
        instanceTypes: types,
      });
      h.clock.advance(2 * MIN);

      const { result } = await lifecycleOnce(h);

      expect(result).toMatchObject({ outcome: 'ran', garbage: { instances: 0 } });
      const mine = cloud === 'gcp' ? h.gceProvider() : h.ec2Provider();
      expect((await mine.list()).map((i) => i.providerId)).not.toContain(instance.providerId);
      expect((await theirs.list()).map((i) => i.providerId)).toContain(instance.providerId);
    },
  );

  it('an EC2 instance without the deployment tag (launched before deployment ids) is refused in code, though EC2 would terminate it', async () => {
    // Tagged with the cluster, so an IAM condition on the cluster tag alone allows the terminate.
    const legacy = placeEc2Instance(h.ec2.world, {
      zone: 'us-east-1a',
      tags: {
        'kraftsman.dev/cluster': h.clusterName,
        'karpenter.sh/nodepool': 'aws-gpu',
        'karpenter.sh/nodeclaim': 'legacy-claim',
      },
    });
    h.seed([drainingNode(h, 'legacy-node', legacy, 'aws-gpu')]);
    const before = refused(h, 'foreign-deployment');

    await lifecycleOnce(h);

    expect(ec2Running(h, legacy)).toBe(true);
    expect(names(h, 'Node')).toContain('legacy-node');
    expect(refused(h, 'foreign-deployment') - before).toBe(1);
    expect(refusalEvents(h, 'Node', 'legacy-node')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('kraftsman.dev/deployment') }),
    ]);
  });
});
