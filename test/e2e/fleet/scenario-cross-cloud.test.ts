// The `cross-cloud` scenario end to end: an oversized on-demand EC2 node runs three pods with no cloud-pinning
// affinity, NodePools exist on both clouds, and the cheapest node that holds the pods is on Compute Engine.
// Consolidation replaces the EC2 node with a Compute Engine node; the command is recorded as cross-cloud.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crossCloud } from '../../../local/fleet/scenarios/cross-cloud.ts';
import { brokenInvariants } from '../../../local/fleet/summary.ts';
import { objects, podsOf, runScenario, scenarioSeed, type ScenarioRun } from './scenario-support.ts';

const scenario = crossCloud();
let r: ScenarioRun;
let ec2Node: string;
beforeAll(async () => {
  r = await runScenario(scenario, scenarioSeed(11));
  const instance = [...r.env.ec2.world.instances.values()][0];
  ec2Node = String(instance?.tags['karpenter.sh/nodeclaim'] ?? '');
}, 240_000);
afterAll(() => r?.env.close());

describe('cross-cloud', () => {
  it('replaces the EC2 node by a cheaper Compute Engine node, in a completed cross-cloud command', () => {
    const replaced = r.summary.commands.filter((c) => c.candidates.includes(ec2Node));
    expect(replaced).toHaveLength(1);
    const [c] = replaced;
    expect(c).toMatchObject({ decision: 'replace', outcome: 'completed', crossCloud: true });
    expect(c?.replacements).toHaveLength(1);
    expect(c?.replacements[0]?.startsWith('cpu-gcp-')).toBe(true);
    // m7i.8xlarge ($1.613/h) for n2-standard-4 ($0.194/h).
    expect(c?.savingsPerHour).toBeGreaterThan(1.4);
  });

  it('launches the replacement once: no pass deletes it as empty before the pods move onto it', () => {
    const [c] = r.summary.commands.filter((x) => x.candidates.includes(ec2Node));
    const replacement = c?.replacements[0] ?? '';
    expect(r.summary.commands.filter((x) => x.candidates.includes(replacement))).toEqual([]);
    expect(r.summary.launches.gcp).toBe(1);
  });

  it('runs the pods on Compute Engine and takes the EC2 instance away', () => {
    const owner = String(
      objects(r.kube, 'Pod').find((p) => String(p.metadata.name).startsWith('web-'))?.metadata
        .ownerReferences?.[0]?.name,
    );
    const pods = podsOf(r.kube, owner);
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.pod.status?.phase).toBe('Running');
      expect(p.node?.spec?.providerID?.startsWith('gce://')).toBe(true);
    }
    expect([...r.env.ec2.world.instances.values()].map((i) => i.state)).toEqual(['terminated']);
    expect(r.summary.launches).toMatchObject({ aws: 0, failed: 0 });
    expect(r.summary.pods).toMatchObject({ pendingEnd: 0, lost: 0 });
    expect(brokenInvariants(r.run)).toEqual([]);
  });
});
