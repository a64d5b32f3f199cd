// Compute Engine instance states as the API reports them (local/gce/README.md, "Instance states"): a VM is
// PROVISIONING, then STAGING, then RUNNING, asynchronously after its insert is done, and it boots only once
// RUNNING; a deleted one is STOPPING until its delete operation is done. The adapter reads the first two as
// pending and the last as gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceNotFoundError } from '../../../shared/ports/cloud-provider/errors.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { gceNodeClass, startGceRig, type GceRig } from './gce-setup.ts';

const g2 = [{ key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['g2-standard-4'] }];

describe('Compute Engine instance states', () => {
  let rig: GceRig;
  const booted: string[] = [];
  const seen: string[] = [];
  beforeAll(async () => {
    rig = await startGceRig({
      emulator: { stateStepMs: 1_500, onBoot: (b) => void booted.push(b.name) },
    });
  });
  afterAll(() => rig.close());

  it('passes through PROVISIONING and STAGING before RUNNING, and boots only then', async () => {
    const { instance } = await rig.provider.create({
      claim: claim('states-1', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: await rig.provider.instanceTypes(gceNodeClass()),
    });
    const vm = rig.emulator.world.instances.get(rig.emulator.world.key(instance.zone, 'states-1'));
    if (!vm) throw new Error('the emulator holds no states-1');
    await expect
      .poll(
        async () => {
          seen.push(vm.status);
          if (vm.status !== 'RUNNING') expect(booted).not.toContain('states-1');
          return (await rig.provider.get(instance.providerId)).state;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe('running');
    expect(seen[0]).toBe('PROVISIONING');
    expect(seen).toContain('STAGING');
    expect(seen.indexOf('STAGING')).toBeGreaterThan(seen.indexOf('PROVISIONING'));
    expect(booted).toContain('states-1');
  });

  it('reports a deleted VM STOPPING (gone to the adapter) until the delete is done, and a VM deleted while PROVISIONING never boots', async () => {
    const { instance } = await rig.provider.create({
      claim: claim('states-2', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: await rig.provider.instanceTypes(gceNodeClass()),
    });
    rig.emulator.world.faults.operationDelayMs = 60_000;
    await rig.provider.delete(instance.providerId);
    const vm = rig.emulator.world.instances.get(rig.emulator.world.key(instance.zone, 'states-2'));
    expect(vm?.status).toBe('STOPPING');
    await expect(rig.provider.get(instance.providerId)).rejects.toBeInstanceOf(InstanceNotFoundError);
    await new Promise((r) => setTimeout(r, 3_500));
    expect(vm?.status).toBe('STOPPING');
    expect(booted).not.toContain('states-2');
    rig.emulator.world.faults.operationDelayMs = 0;
  });
});
