// A rule the tests let drift (issue 29, item 11), through the admit handler on the emulators and DynamoDB Local:
// admission re-simulates a consolidation against live state and rejects a command whose one pod no longer fits
// anywhere (Karpenter's validation.go: pods that did not schedule fail the command), instead of deleting the node
// the pod needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { DISRUPTED_TAINT_KEY } from '../../../shared/model/labels.ts';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { admitHandler, emptyNode, withBudget } from '../../support/e2e/disruption-handlers.ts';
import { lambdaContext, nodePool, pod, startHarness, type E2eHarness } from '../../support/e2e/index.ts';

/** Only these nodes carry the label; no NodePool can make a node with it. */
const SPECIAL = { 'example.com/rack': 'r1' };

const special = (name: string): KubeObject => {
  const n = emptyNode(name, 'aws-gpu');
  const labels = n.metadata.labels as Record<string, string>;
  return { ...n, metadata: { ...n.metadata, labels: { ...labels, ...SPECIAL } } };
};

describe('admission rejects a command whose one pod no longer fits anywhere', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({
      objects: [withBudget(nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge'] }), '100%')],
    });
    // Node a runs the pod; node b, the only other node with the label, had room for it when the pass proposed.
    h.seed([special('rack-a'), special('rack-b')]);
    h.seed([{ ...pod('pinned', { gpus: 1, replicaSet: 'pinned', nodeSelector: SPECIAL }) }]);
    h.kube.store.patch(
      h.kube.typeOf('Pod'),
      'default',
      'pinned',
      'application/merge-patch+json',
      { spec: { nodeName: 'rack-a' }, status: { phase: 'Running', conditions: [] } },
      undefined,
    );
    h.clock.advance(5 * 60_000); // consolidateAfter has passed
  });
  afterAll(async () => {
    await h?.close();
  });

  it('rack-b is gone before admission: the delete of rack-a is refused at validation, nothing tainted', async () => {
    h.kube.store.delete(h.kube.typeOf('Node'), undefined, 'rack-b', { gracePeriodSeconds: 0 });
    const payload = {
      cluster: h.clusterName,
      passId: 'p-fits-nowhere',
      createdAt: h.clock.now().getTime(),
      proposals: [
        {
          method: 'single-node-consolidation',
          reason: 'Underutilized',
          candidates: ['rack-a'],
          replacements: [],
          savingsPerHour: 1,
        },
      ],
    };
    const r = await admitHandler(h)(payload, lambdaContext('admit'));
    expect(r).toEqual({
      outcome: 'ran',
      admitted: [],
      rejected: [{ candidates: ['rack-a'], stage: 'validation' }],
      expired: 0,
    });
    expect(h.metrics.total(LOOP_METRICS.admissionFailuresTotal, { stage: 'validation' })).toBe(1);
    const a = h.list('Node').find((n) => n.metadata.name === 'rack-a');
    const taints = ((a?.spec as { taints?: { key: string }[] } | undefined)?.taints ?? []).map((t) => t.key);
    expect(taints).not.toContain(DISRUPTED_TAINT_KEY);
    expect(await h.store().listCommandsByStatus(h.clusterName, 'launching')).toEqual([]);
  });
});
