// The emulators feed the Kubernetes emulator: an instance that boots on either cloud registers a Node
// whose labels and taints come from the bootstrap script kraftsman rendered for its NodeClaim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeApiEmulator, parseBootstrap, registerNode } from '../../../local/kube-api/index.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';
import { gceNodeClass, startGceRig, type GceRig } from './gce-setup.ts';

describe('a booted instance registers its Node', () => {
  const kube = new KubeApiEmulator();
  let ec2: Ec2Rig;
  let gce: GceRig;
  beforeAll(async () => {
    await kube.start();
    ec2 = await startEc2Rig({
      emulator: {
        onBoot: (b) => {
          const { labels, taints } = parseBootstrap(b.userData);
          registerNode(kube, {
            nodeName: `ip-${b.instanceId}`,
            providerId: b.providerId,
            labels,
            taints,
            capacity: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' },
          });
        },
      },
    });
    gce = await startGceRig({
      emulator: {
        onBoot: (b) => {
          const { labels, taints } = parseBootstrap(b.startupScript);
          registerNode(kube, {
            nodeName: b.name,
            providerId: b.providerId,
            labels,
            taints,
            capacity: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' },
          });
        },
      },
    });
  });
  afterAll(async () => {
    await ec2.close();
    await gce.close();
    await kube.close();
  });

  const nodeFor = (providerId: string) =>
    kube.store
      .list(kube.typeOf('Node'), undefined)
      .items.find((n) => (n.spec as { providerID?: string }).providerID === providerId);

  it('on EC2, with the claim labels and the unregistered taint', async () => {
    const types = await ec2.provider.instanceTypes(ec2NodeClass());
    const { instance } = await ec2.provider.create({
      claim: claim('boots-aws'),
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    await expect.poll(() => nodeFor(instance.providerId)).toBeDefined();
    const node = nodeFor(instance.providerId);
    expect(node?.metadata.labels).toMatchObject({
      'karpenter.sh/nodepool': 'gpu',
      'karpenter.sh/capacity-type': 'on-demand',
    });
    expect((node?.spec as { taints?: unknown[] }).taints).toEqual(
      expect.arrayContaining([
        { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
        { key: 'nvidia.com/gpu', effect: 'NoSchedule' },
      ]),
    );
  });

  it('on Compute Engine, from the startup-script', async () => {
    const types = await gce.provider.instanceTypes(gceNodeClass());
    const { instance } = await gce.provider.create({
      claim: claim('boots-gcp'),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    await expect.poll(() => nodeFor(instance.providerId)).toBeDefined();
    expect(nodeFor(instance.providerId)?.metadata.labels).toMatchObject({ 'karpenter.sh/nodepool': 'gpu' });
  });
});
