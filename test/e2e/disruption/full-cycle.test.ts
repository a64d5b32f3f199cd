// The whole disruption loop through the handlers, on both clouds: consolidate proposes replacing two
// underused GPU nodes (a g5.12xlarge and a g2-standard-24 each left with a 1-GPU pod), admit starts both
// commands and launches the replacements through launch-aws and launch-gcp, lifecycle initializes them, and
// orchestrate drains, terminates and deletes the candidates: the candidates are gone, their pods run on the
// replacements, the instances are terminated in the emulators and the negative cache is cleared (epoch bump).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import {
  nodeOf,
  removePod,
  runConsolidate,
  startReplacementHarness,
} from '../../support/e2e/disruption-handlers.ts';
import {
  lambdaContext,
  lifecycleHandler,
  pod,
  scheduledEvent,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { eventsAbout, storyOf } from '../../support/e2e/observability.ts';
import { orchestrateHandler } from '../../support/e2e/orchestration-handlers.ts';
import { bringUp } from '../../support/e2e/steps.ts';

describe('pass → admission → orchestration through the handlers', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    // The whole loop on kube-apiserver's bookmark schedule: every warm read waits for the pre-timeout bookmark.
    h = await startReplacementHarness({ bookmarks: {} });
  });
  afterAll(async () => {
    await h?.close();
  });

  const lifecycle = () => lifecycleHandler(h)(scheduledEvent(h.clock), lambdaContext('lifecycle'));
  const orchestrate = async () => {
    const r = await orchestrateHandler(h)(scheduledEvent(h.clock), lambdaContext('orchestrate'));
    if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
    return r;
  };
  const providerIdOf = (node: string) =>
    (h.list('Node').find((n) => n.metadata.name === node)?.spec as { providerID?: string }).providerID ?? '';

  it('replaces an underused node on each cloud, to completion', async () => {
    await bringUp(h, [
      pod('batch-aws', { gpus: 3, nodeSelector: { 'kraftsman.dev/cloud': 'aws' } }),
      pod('keep-aws', { gpus: 1, replicaSet: 'keep-aws', nodeSelector: { 'kraftsman.dev/cloud': 'aws' } }),
      pod('batch-gcp', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': 'gcp' } }),
      pod('keep-gcp', { gpus: 1, replicaSet: 'keep-gcp', nodeSelector: { 'kraftsman.dev/cloud': 'gcp' } }),
    ]);
    const candidates = [nodeOf(h, 'keep-aws')!, nodeOf(h, 'keep-gcp')!];
    expect(nodeOf(h, 'batch-aws')).toBe(candidates[0]);
    expect(nodeOf(h, 'batch-gcp')).toBe(candidates[1]);
    const instances = candidates.map(providerIdOf);
    const gceName = instances[1]!.split('/').pop()!;
    const liveGce = () =>
      [...h.gce.world.instances.values()].filter((i) => i.name === gceName && i.status !== 'TERMINATED');
    expect(liveGce()).toHaveLength(1);
    removePod(h, 'batch-aws');
    removePod(h, 'batch-gcp');
    h.clock.advance(5 * 60_000);
    const epoch = (await h.store().loadPassState(h.clusterName)).epoch;

    // consolidate → admit → launch-aws / launch-gcp, all through the invoker.
    expect(await runConsolidate(h, { maxCommands: 2 })).toMatchObject({ outcome: 'ran', handedOff: 2 });
    const store = h.store();
    const cmds = await store.listCommandsByStatus(h.clusterName, 'launching');
    expect(cmds.flatMap((c) => c.candidates).sort()).toEqual([...candidates].sort());
    await expect.poll(() => h.list('Node').length).toBe(4);
    // Not initialized yet: orchestration waits (and says so on each replacement).
    expect((await orchestrate()).transitions).toEqual([]);
    await lifecycle(); // registers the replacements
    await lifecycle(); // initializes them

    const draining = await orchestrate();
    expect(draining.transitions.map((t) => t.to)).toEqual(['draining', 'draining']);
    h.kube.terminatePods(); // the kubelet finishes the evicted pods; their ReplicaSets made new ones
    h.bind();
    const done = await orchestrate();
    expect(done.transitions.map((t) => t.to)).toEqual(['completed', 'completed']);

    const nodes = h.list('Node').map((n) => n.metadata.name);
    for (const c of candidates) expect(nodes).not.toContain(c);
    const replacements = cmds.flatMap((c) => c.replacements);
    const replacementNodes = h
      .list('NodeClaim')
      .filter((c) => replacements.includes(String(c.metadata.name)))
      .map((c) => (c.status as { nodeName?: string }).nodeName);
    expect(replacementNodes).toHaveLength(2);
    for (const app of ['keep-aws', 'keep-gcp']) {
      const owned = (p: { metadata: { ownerReferences?: unknown } }) =>
        (p.metadata.ownerReferences as { name: string }[] | undefined)?.[0]?.name === app;
      const pods = h.list('Pod').filter(owned);
      expect(pods).toHaveLength(1);
      expect(replacementNodes).toContain((pods[0]!.spec as { nodeName?: string }).nodeName);
      expect((pods[0]!.status as { phase?: string }).phase).toBe('Running');
    }
    const awsId = instances[0]!.split('/').pop()!;
    expect(h.ec2.world.instances.get(awsId)?.state).toBe('terminated');
    expect(liveGce()).toEqual([]); // deleted (or terminated) on the Compute Engine emulator
    expect((await store.loadPassState(h.clusterName)).epoch).toBeGreaterThan(epoch);

    // The metrics of the whole cycle.
    expect(h.metrics.total(KRAFTSMAN_METRICS.passOutcomesTotal, { outcome: 'proposed' })).toBe(1);
    expect(h.metrics.total(LOOP_METRICS.commandsAdmittedTotal, { decision: 'replace' })).toBe(2);
    expect(
      h.metrics.total(LOOP_METRICS.commandsExecutedTotal, { decision: 'replace', result: 'completed' }),
    ).toBe(2);
    expect(h.metrics.total(LOOP_METRICS.admissionFailuresTotal)).toBe(0);

    // What a Karpenter user reads back (docs/observability.md): each candidate's story in the decision log ...
    for (const c of candidates) {
      const story = storyOf(h, c);
      expect(story.map((s) => s.decision)).toEqual(['proposed', 'admitted', 'completed']);
      const id = cmds.find((cmd) => cmd.candidates.includes(c))?.id;
      expect(story.slice(1).map((s) => s.commandId)).toEqual([id, id]);
    }
    // ... its events, from the API server ...
    for (const c of candidates)
      expect(await eventsAbout(h, c)).toContainEqual(
        expect.objectContaining({
          reason: 'DisruptionTerminating',
          message: 'Disrupting Node: Underutilized',
        }),
      );
    for (const r of replacements) {
      const reasons = (await eventsAbout(h, r)).map((e) => `${e.reason}: ${e.message}`);
      expect(reasons).toEqual(
        expect.arrayContaining([
          'DisruptionLaunching: Launching NodeClaim: Underutilized',
          'DisruptionWaitingReadiness: Waiting on readiness to continue disruption',
          'Launched: Status condition transitioned, Type: Launched, Status: Unknown -> True, Reason: Launched',
          'Registered: Status condition transitioned, Type: Registered, Status: Unknown -> True, Reason: Registered',
          'Ready: Status condition transitioned, Type: Ready, Status: Unknown -> True, Reason: Ready',
        ]),
      );
      // ... the replacement's Ready condition, as `kubectl get nodeclaims` shows it in READY ...
      const claim = h.list('NodeClaim').find((x) => x.metadata.name === r);
      const conditions = (claim?.status as { conditions?: { type: string; status: string }[] }).conditions;
      expect(conditions).toContainEqual(expect.objectContaining({ type: 'Ready', status: 'True' }));
    }
    const keep = h.list('Pod').find((p) => String(p.metadata.name).startsWith('batch-aws'));
    expect(keep).toBeUndefined(); // removed above; the pods provisioning nominated carry their own events:
    expect(await eventsAbout(h, 'keep-aws')).toContainEqual(
      expect.objectContaining({
        reason: 'Nominated',
        message: expect.stringMatching(/^Pod should schedule on: nodeclaim\//),
      }),
    );
    // ... and the NodePools' status, as `kubectl get nodepools` shows NODES and READY.
    await lifecycle();
    for (const pool of h.list('NodePool')) {
      const status = pool.status as {
        nodes?: number;
        resources?: Record<string, string>;
        conditions?: { type: string; status: string }[];
      };
      const inPool = h
        .list('Node')
        .filter(
          (n) =>
            (n.metadata.labels as Record<string, string> | undefined)?.['karpenter.sh/nodepool'] ===
            pool.metadata.name,
        );
      expect(status.nodes, String(pool.metadata.name)).toBe(inPool.length);
      expect(status.resources?.nodes).toBe(String(inPool.length));
      for (const type of ['ValidationSucceeded', 'NodeClassReady', 'Ready'])
        expect(status.conditions).toContainEqual(expect.objectContaining({ type, status: 'True' }));
    }
  }, 180_000);
});
