// Orchestration's terminate proves the candidate's instance is this deployment's at the moment it acts
// (docs/mechanisms/identity.md#instances), through the orchestrate handler against the emulators and DynamoDB
// Local: an instance that stopped carrying this deployment's id between admission and termination is refused —
// not terminated, its Node and NodeClaim kept, the command left draining — and the refusal is counted and
// recorded on the Node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import { startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { initializeNodes, nodesOf, orchestrate, underusedNode } from '../../support/e2e/disruption-world.ts';
import { refusalEvents } from '../../support/e2e/identity.ts';
import { providerIdOf } from '../../support/e2e/steps.ts';
import { proposalFor, startCommandNow } from '../../support/e2e/orchestration-handlers.ts';

describe('orchestrate refuses an instance that is not this deployment’s', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'orchestrate-identity' });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps the candidate’s instance, Node and NodeClaim, and the command draining', async () => {
    const s = await underusedNode(h, 'foreign', 1);
    const { id } = await startCommandNow(h, await proposalFor(h, s.candidate));
    await orchestrate(h);
    await expect.poll(() => nodesOf(h, s.pool).length).toBe(2);
    await initializeNodes(h);
    await orchestrate(h); // → draining, its pod evicted
    h.kube.terminatePods();
    h.bind();
    // The instance under that id is another deployment's now (a reused id, a hand-over): not ours to terminate.
    const instance = h.ec2.world.instances.get(s.instanceId);
    if (!instance) throw new Error(`no instance ${s.instanceId}`);
    instance.tags['kraftsman.dev/deployment'] = 'another-deployment';

    await orchestrate(h);
    await orchestrate(h);

    expect(instance.state).toBe('running');
    expect(h.list('Node').map((n) => n.metadata.name)).toContain(s.candidate);
    expect(h.list('NodeClaim').some((c) => providerIdOf(c)?.endsWith(`/${s.instanceId}`))).toBe(true);
    expect((await h.store().getCommand(h.clusterName, id))?.status).toBe('draining');
    expect(h.metrics.total(REFUSAL_METRIC, { action: 'terminate', reason: 'foreign-deployment' })).toBe(2);
    expect(refusalEvents(h, 'Node', s.candidate)).not.toEqual([]);
  });
});
