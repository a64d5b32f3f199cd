// The `spot-interruption` scenario end to end: an EC2 Spot interruption warning (delivered as EventBridge
// forwards it to the interruption queue, which lifecycle consumes) and a Compute Engine preemption (the
// zonal operation lifecycle reads) on full nodes. The cause is stamped on the Node and its NodeClaim, the
// node is drained and its instance gone, and the displaced replicas run on a replacement launched on the
// same cloud — on EC2 within the two-minute notice, so the cloud never had to reclaim a running node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spotInterruption } from '../../../local/fleet/scenarios/spot-interruption.ts';
import { brokenInvariants } from '../../../local/fleet/summary.ts';
import { SPOT_NOTICE_MS } from '../../../local/fleet/events.ts';
import {
  objects,
  ownerOfName,
  podsOf,
  runScenario,
  scenarioSeed,
  type ScenarioRun,
} from './scenario-support.ts';

const scenario = spotInterruption();
let r: ScenarioRun;
beforeAll(async () => {
  r = await runScenario(scenario, scenarioSeed(5));
}, 240_000);
afterAll(() => r?.env.close());

const CAUSE = { aws: 'spot-interruption', gcp: 'preempted' } as const;

describe('spot-interruption', () => {
  it('interrupts one full spot node on each cloud, and the cause is stamped on its Node and NodeClaim', () => {
    const record = scenario.timeline.record(r.kube);
    expect(record.injected.map((i) => i.cloud).sort()).toEqual(['aws', 'gcp']);
    for (const i of record.injected) {
      expect(i.pods?.length).toBe(2);
      expect(record.causes.get(`Node/${i.node}`)).toBe(CAUSE[i.cloud ?? 'aws']);
      expect(record.causes.get(`NodeClaim/${i.claim}`)).toBe(CAUSE[i.cloud ?? 'aws']);
    }
    // kraftsman drained and terminated the EC2 node itself before the notice ran out.
    expect(record.outlivedNotice).toEqual([]);
  });

  it('takes the interrupted instances out of both clouds and leaves no claim holding them', () => {
    const record = scenario.timeline.record(r.kube);
    const aws = record.injected.find((i) => i.cloud === 'aws');
    const gcp = record.injected.find((i) => i.cloud === 'gcp');
    const ec2 = [...r.env.ec2.world.instances.values()].find((i) =>
      aws?.providerID?.endsWith(`/${i.instanceId}`),
    );
    expect(ec2?.state).toBe('terminated');
    const gce = [...r.env.gce.world.instances.values()].find((i) => gcp?.providerID?.endsWith(`/${i.name}`));
    expect(gce === undefined || gce.status === 'TERMINATED').toBe(true);
    const held = objects(r.kube, 'NodeClaim').filter(
      (c) =>
        !c.metadata.deletionTimestamp && record.injected.some((i) => i.providerID === c.status?.providerID),
    );
    expect(held).toEqual([]);
  });

  it('runs every displaced replica on a replacement node launched on its own cloud after the interruption', () => {
    const record = scenario.timeline.record(r.kube);
    for (const i of record.injected) {
      const owner = ownerOfName(i.pods?.[0] ?? '');
      const pods = podsOf(r.kube, owner);
      // Every replica of the owner is bound and running, none on the interrupted node.
      expect(pods).toHaveLength(6);
      for (const p of pods) {
        expect(p.pod.status?.phase).toBe('Running');
        expect(p.node?.metadata.name).not.toBe(i.node);
      }
      const replacements = pods.filter(
        (p) => Date.parse(String(p.node?.metadata.creationTimestamp)) > Date.parse(i.at),
      );
      // Where each replica runs, for a failure to explain itself (a pod bound to a Node that is gone has none).
      const where = pods.map(
        (p) =>
          `${p.pod.metadata.name} on ${p.pod.spec?.nodeName ?? '(unbound)'} ` +
          `${p.node ? `created ${String(p.node.metadata.creationTimestamp)}` : '(no such Node)'}`,
      );
      expect(replacements, `interrupted at ${i.at}: ${where.join('; ')}`).toHaveLength(i.pods?.length ?? 0);
      for (const p of replacements) {
        expect(p.node?.spec?.providerID?.startsWith(i.cloud === 'aws' ? 'aws://' : 'gce://')).toBe(true);
        if (i.cloud === 'aws')
          expect(Date.parse(String(p.node?.metadata.creationTimestamp))).toBeLessThan(
            Date.parse(i.at) + SPOT_NOTICE_MS,
          );
      }
    }
    expect(r.summary.launches.failed).toBe(0);
    expect(r.summary.pods.lost).toBe(0);
    expect(r.summary.pods.pendingEnd).toBe(0);
    expect(brokenInvariants(r.run)).toEqual([]);
  });
});
