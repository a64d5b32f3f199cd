// Launching through the handlers when things go wrong: the same launch invoked twice (one instance), a crash
// after the cloud call but before the record (the retry adopts the instance), a payload for another cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudProvider } from '../../../shared/ports/cloud-provider/index.ts';
import type { InvocationRecord } from '../../../shared/adapters/memory/invoker.ts';
import { lambdaContext, launchHandler, pod, type E2eHarness } from '../../support/e2e/index.ts';
import { startGpuHarness } from '../../support/e2e/gpu-pools.ts';
import { provisionOnce, providerIdOf } from '../../support/e2e/steps.ts';

describe('launching through the handlers', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startGpuHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const liveEc2 = () => [...h.ec2.world.instances.values()].filter((i) => i.state !== 'terminated');

  /** Provision with launchers that only capture their payloads, so a test can run the launch itself. */
  // Each pod pins its own instance type, so no node an earlier test left behind can take it.
  const captured = async (podName: string, type: string): Promise<InvocationRecord['payload']> => {
    const payloads: unknown[] = [];
    h.invoker.register('launch-aws', async (p) => void payloads.push(p));
    h.invoker.register('launch-gcp', async (p) => void payloads.push(p));
    h.seed([pod(podName, { gpus: 1, nodeSelector: { 'node.kubernetes.io/instance-type': type } })]);
    await provisionOnce(h);
    expect(payloads).toHaveLength(1);
    return payloads[0];
  };
  const instancesOf = (claim: string) => liveEc2().filter((i) => i.tags['karpenter.sh/nodeclaim'] === claim);

  it('the same launch invoked twice (also at once) launches one instance', async () => {
    const p = await captured('twice', 'g5.12xlarge');
    const claim = (p as { claims: string[] }).claims[0] as string;
    const launch = launchHandler(h, 'aws');
    const [a, b] = await Promise.all([
      launch(p, lambdaContext('launch-aws')),
      launch(p, lambdaContext('launch-aws')),
    ]);
    const again = await launch(p, lambdaContext('launch-aws'));
    expect(a.launched + b.launched + a.alreadyLaunched + b.alreadyLaunched).toBeGreaterThanOrEqual(1);
    expect(again).toMatchObject({ launched: 0, alreadyLaunched: 1 });
    expect(instancesOf(claim)).toHaveLength(1);
  });

  it('a crash after CreateFleet and before the record: the next invocation adopts the instance', async () => {
    const p = await captured('crash', 'g5.xlarge');
    const claim = (p as { claims: string[] }).claims[0] as string;
    const real = h.ec2Provider();
    const crashing: CloudProvider = Object.assign(Object.create(real) as CloudProvider, {
      create: async (req: Parameters<CloudProvider['create']>[0]) => {
        await real.create(req);
        throw new Error('the Lambda died after CreateFleet answered');
      },
    });
    await expect(launchHandler(h, 'aws', crashing)(p, lambdaContext('launch-aws'))).rejects.toThrow(/died/);
    expect(instancesOf(claim)).toHaveLength(1);
    const record = await h.store().getLaunch(h.clusterName, claim);
    expect(record?.status).toBe('pending');
    const retry = await launchHandler(h, 'aws')(p, lambdaContext('launch-aws'));
    expect(retry).toMatchObject({ launched: 1 });
    expect(instancesOf(claim)).toHaveLength(1);
    const adopted = instancesOf(claim)[0];
    const c = h.list('NodeClaim').find((x) => x.metadata.name === claim);
    expect(providerIdOf(c)).toBe(`aws:///${adopted?.zone}/${adopted?.instanceId}`);
    expect((await h.store().getLaunch(h.clusterName, claim))?.status).toBe('launched');
  });

  it('a payload for another cluster, or a malformed one, fails naming the field', async () => {
    const before = h.gce.world.instances.size;
    const launch = launchHandler(h, 'gcp');
    await expect(launch({ claims: [] }, lambdaContext('launch-gcp'))).rejects.toThrow(
      /launch-gcp payload: fence/,
    );
    const foreign = {
      fence: { cluster: 'other', name: 'provisioning', owner: 'x', token: 1 },
      nodeClass: h.list('GCENodeClass')[0],
      claims: ['gcp-gpu-abcde'],
    };
    await expect(launch(foreign, lambdaContext('launch-gcp'))).rejects.toThrow(/fence.cluster: other/);
    expect(h.gce.world.instances.size).toBe(before);
  });
});
