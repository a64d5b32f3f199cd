// The `gang-refused` scenario end to end: a Volcano gang of four 8-GPU workers (PodGroup minMember 4) while
// every H100 offering on both clouds has two instances left. The gang is tried whole on each cloud (EC2
// CreateFleet with MinTargetCapacity, Compute Engine bulkInsert with minCount) and refused whole: no instance
// of it in either cloud's world, no NodeClaim left for it, its workers still pending (docs/mechanisms/gangs.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GANG, GANG_TYPES, gangRefused } from '../../../local/fleet/scenarios/gang-refused.ts';
import { brokenInvariants } from '../../../local/fleet/summary.ts';
import { objects, podsOf, runScenario, scenarioSeed, type ScenarioRun } from './scenario-support.ts';

const scenario = gangRefused();
let r: ScenarioRun;
beforeAll(async () => {
  r = await runScenario(scenario, scenarioSeed(3));
}, 240_000);
afterAll(() => r?.env.close());

const gangType = (t: string): boolean => (GANG_TYPES as readonly string[]).includes(t);

describe('gang-refused', () => {
  it('asks each cloud for the gang as one unit', () => {
    expect(scenario.timeline.record(r.kube).injected.map((i) => i.kind)).toEqual(['capacity']);
    const fleets = r.env.ec2.world.requests.filter(
      (q) => q.action === 'CreateFleet' && [...q.params.values()].some(gangType),
    );
    expect(fleets.length).toBeGreaterThan(0);
    for (const q of fleets)
      expect([...q.params.entries()].some(([k, v]) => k.endsWith('MinTargetCapacity') && v === '4')).toBe(
        true,
      );
    const bulk = [...r.env.gce.world.operations.values()].filter((o) => o.operationType === 'bulkInsert');
    expect(bulk.length).toBeGreaterThan(0);
    for (const o of bulk) expect(o.error?.errors.length).toBeGreaterThan(0);
    expect(r.summary.launches.gangsRefused).toBeGreaterThanOrEqual(2);
    expect(r.summary.launches.gangsLaunched).toBe(0);
  });

  it('launches nothing of the gang on either cloud and leaves no NodeClaim for it', () => {
    expect([...r.env.ec2.world.instances.values()].filter((i) => gangType(i.instanceType))).toEqual([]);
    expect([...r.env.gce.world.instances.values()].filter((i) => gangType(i.machineType))).toEqual([]);
    const claims = objects(r.kube, 'NodeClaim').filter((c) =>
      c.metadata.labels?.['karpenter.sh/nodepool']?.startsWith('training-'),
    );
    expect(claims).toEqual([]);
    expect(
      objects(r.kube, 'Node').filter((n) =>
        gangType(n.metadata.labels?.['node.kubernetes.io/instance-type'] ?? ''),
      ),
    ).toEqual([]);
  });

  it('keeps every worker pending and the rest of the fleet whole', () => {
    const workers = podsOf(r.kube, GANG);
    expect(workers).toHaveLength(4);
    for (const w of workers) expect(w.pod.spec?.nodeName).toBeUndefined();
    expect(r.summary.pods.pendingEnd).toBe(4);
    expect(r.summary.pods.lost).toBe(0);
    expect(brokenInvariants(r.run)).toEqual([]);
  });
});
