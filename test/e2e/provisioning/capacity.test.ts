// Capacity fallback through the handlers: no capacity for the cheapest offering (the next one launches), no
// capacity on a whole cloud (the claim is deleted and comes back on the other cloud).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_ZONES, pod, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { AWS_GPU_TYPES, startGpuHarness } from '../../support/e2e/gpu-pools.ts';
import { provisionOnce, providerIdOf } from '../../support/e2e/steps.ts';

describe('capacity fallback through the handlers', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startGpuHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const provision = async () => (await provisionOnce(h)).result;

  /** Provision with launchers that only capture their payloads, so a test can run the launch itself. */
  it('no capacity for the cheapest offering: the next offering launches and the refusal is remembered', async () => {
    const known = new Set(h.list('NodeClaim').map((c) => c.metadata.name));
    for (const zone of AWS_ZONES) h.ec2.world.setCapacity('g5.xlarge', zone, 'on-demand', 0);
    wireLaunchers(h);
    h.seed([pod('fallback-type', { gpus: 1 })]);
    expect(await provision()).toMatchObject({ claimsCreated: 1 });
    const claims = h.list('NodeClaim').filter((c) => !known.has(c.metadata.name));
    expect(claims).toHaveLength(1);
    const labels = claims[0]?.metadata.labels as Record<string, string>;
    expect(labels['kraftsman.dev/cloud'] ?? labels['karpenter.sh/nodepool']).toMatch(/aws/);
    expect(labels['node.kubernetes.io/instance-type']).toBe('g5.2xlarge');
    const state = await h.store().loadPassState(h.clusterName);
    expect(state.unavailableOfferings.map((o) => `${o.instanceType}/${o.zone}`).sort()).toEqual(
      AWS_ZONES.map((z) => `g5.xlarge/${z}`),
    );
  });

  it('no capacity on a whole cloud: the claim is deleted and its pod is provisioned on the other cloud', async () => {
    for (const zone of AWS_ZONES)
      for (const t of AWS_GPU_TYPES) h.ec2.world.setCapacity(t, zone, 'on-demand', 0);
    const before = new Set(h.list('NodeClaim').map((c) => c.metadata.name));
    h.seed([pod('fallback-cloud', { gpus: 1 })]);
    const first = await provision();
    expect(first).toMatchObject({ claimsCreated: 1 });
    // The aws claim found no capacity: deleted, offerings marked unavailable.
    expect(h.list('NodeClaim').filter((c) => !before.has(c.metadata.name))).toHaveLength(0);
    expect(await provision()).toMatchObject({ claimsCreated: 1 });
    const fresh = h.list('NodeClaim').filter((c) => !before.has(c.metadata.name));
    expect(
      fresh.map((c) => (c.metadata.labels as Record<string, string> | undefined)?.['karpenter.sh/nodepool']),
    ).toEqual(['gcp-gpu']);
    expect(providerIdOf(fresh[0])).toMatch(/^gce:\/\//);
    for (const zone of AWS_ZONES)
      for (const t of AWS_GPU_TYPES) h.ec2.world.setCapacity(t, zone, 'on-demand', 100);
  });
});
