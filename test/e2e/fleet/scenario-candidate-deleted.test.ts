// The `candidate-deleted` scenario end to end: consolidation takes half-empty nodes on both clouds, and the
// moment a command has tainted a candidate its instance is terminated out of band (EC2 TerminateInstances,
// Compute Engine instances.delete). The command still finishes (completed or rolled back), no Node is left
// tainted disrupted, no instance is left without a NodeClaim, no claim holds the vanished instance, no pod is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidateDeleted } from '../../../local/fleet/scenarios/candidate-deleted.ts';
import { DISRUPTED_TAINT_KEY } from '../../../shared/model/labels.ts';
import { brokenInvariants } from '../../../local/fleet/summary.ts';
import { objects, runScenario, scenarioSeed, type ScenarioRun } from './scenario-support.ts';

const scenario = candidateDeleted();
let r: ScenarioRun;
beforeAll(async () => {
  r = await runScenario(scenario, scenarioSeed(7));
}, 240_000);
afterAll(() => r?.env.close());

describe('candidate-deleted', () => {
  it("terminates a tainted candidate's instance on each cloud while its command is in flight", () => {
    const injected = scenario.timeline.record(r.kube).injected;
    expect(injected.map((i) => i.cloud).sort()).toEqual(['aws', 'gcp']);
    for (const i of injected) expect(i.claim).toBeDefined();
  });

  it('finishes every command that held a terminated candidate, and none is left in flight', () => {
    for (const i of scenario.timeline.record(r.kube).injected) {
      const command = r.summary.commands.find((c) => c.candidates.includes(String(i.claim)));
      expect(command, `the command of ${i.claim}`).toBeDefined();
      expect(['completed', 'rolled-back']).toContain(command?.outcome);
    }
    expect(r.run.samples.at(-1)?.commandsInFlight).toBe(0);
    // Simulated time (docs/fleet.md, "Time"): seed 7's run is the same on any machine. Consolidation makes three
    // multi-node deletes, each of one node per cloud; the terminated pair are the third one's candidates, and a
    // delete whose candidates' instances vanished has nothing to roll back: it completes.
    if (r.summary.seed === '7') {
      expect(r.summary.commands.map((c) => [c.method, c.decision, c.outcome, c.candidates.length])).toEqual([
        ['multi-node-consolidation', 'delete', 'completed', 2],
        ['multi-node-consolidation', 'delete', 'completed', 2],
        ['multi-node-consolidation', 'delete', 'completed', 2],
      ]);
      const claims = scenario.timeline.record(r.kube).injected.map((i) => String(i.claim));
      expect(r.summary.commands[2]?.candidates).toEqual(claims);
    }
  });

  it('leaves no stranded taint, no orphan instance, no claim on a vanished instance, and no pod lost', () => {
    const tainted = objects(r.kube, 'Node').filter(
      (n) => !n.metadata.deletionTimestamp && n.spec?.taints?.some((t) => t.key === DISRUPTED_TAINT_KEY),
    );
    expect(tainted).toEqual([]);
    for (const i of scenario.timeline.record(r.kube).injected) {
      const holding = objects(r.kube, 'NodeClaim').filter(
        (c) => !c.metadata.deletionTimestamp && c.status?.providerID === i.providerID,
      );
      expect(holding).toEqual([]);
    }
    expect(r.summary.invariants).toEqual({
      strandedTaints: 0,
      orphanInstances: 0,
      lostPods: 0,
      budgetOverspends: 0,
    });
    expect(r.summary.pods.pendingEnd).toBe(0);
    expect(brokenInvariants(r.run)).toEqual([]);
  });
});
