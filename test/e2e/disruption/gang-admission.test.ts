// Gang-aware disruption through the handlers (docs/mechanisms/gangs.md, "Disruption"), on the kube emulator, the
// EC2 and Compute Engine emulators and DynamoDB Local, the gang's nodes on either cloud: admission refuses a command
// that would take one node of a running Volcano gang (stage validation, detail naming the gang), admits one that
// takes all its nodes, the census function counts the gang's nodes as none, and the consolidate handler proposes
// nothing for a gang it cannot move whole, counting each node skipped `gang` and publishing DisruptionBlocked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { DISRUPTED_TAINT_KEY } from '../../../shared/model/labels.ts';
import { censusContainer } from '../../support/e2e/census.ts';
import {
  admitHandler,
  emptyGpuNode,
  GPU_NODE_SHAPES,
  runConsolidate,
  wireDisruption,
  withBudget,
} from '../../support/e2e/disruption-handlers.ts';
import {
  lambdaContext,
  nodePool,
  pod,
  podGroup,
  scheduledEvent,
  startHarness,
  type E2eHarness,
} from '../../support/e2e/index.ts';

const taintsOf = (h: E2eHarness, node: string) =>
  (
    (h.list('Node').find((n) => n.metadata.name === node)?.spec as { taints?: { key: string }[] })?.taints ??
    []
  ).map((t) => t.key);

const CLOUDS = GPU_NODE_SHAPES;
const gpuNode = emptyGpuNode;

/** PodGroup train (minMember 2): train-0 runs on gang-a, train-1 on gang-b. */
function runningGang(h: E2eHarness): void {
  h.seed([podGroup('train', 2)]);
  for (const [member, node] of [
    ['train-0', 'gang-a'],
    ['train-1', 'gang-b'],
  ] as const) {
    h.seed([pod(member, { gpus: 1, replicaSet: 'train', gang: 'train' })]);
    h.kube.store.patch(
      h.kube.typeOf('Pod'),
      'default',
      member,
      'application/merge-patch+json',
      { spec: { nodeName: node }, status: { phase: 'Running', conditions: [] } },
      undefined,
    );
  }
}

describe('a running gang through the consolidate handler', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({
      objects: [withBudget(nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge'] }), '100%')],
    });
    wireDisruption(h);
    h.seed(['gang-a', 'gang-b'].map((n) => gpuNode('aws', n)));
    runningGang(h);
    h.clock.advance(5 * 60_000);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('proposes nothing and counts each gang node skipped with reason gang', async () => {
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', handedOff: 0 });
    // one skip per gang node and pass (multi-node left the gang out; single-node skipped each)
    expect(
      h.metrics.total(KRAFTSMAN_METRICS.candidateSkipsTotal, { reason: 'gang', nodepool: 'aws-gpu' }),
    ).toBe(2);
    const events = h.list('Event').filter((e) => (e as { reason?: string }).reason === 'DisruptionBlocked');
    expect(events.map((e) => (e as { message?: string }).message)).toContain(
      "Node hosts a member of a running gang whose other nodes can't be disrupted with it",
    );
  });
});

describe.each(['aws', 'gcp'] as const)('a running gang on %s through admission and the census', (cloud) => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({
      objects: [
        withBudget(nodePool(CLOUDS[cloud].pool, cloud, { instanceTypes: [CLOUDS[cloud].type] }), '100%'),
      ],
    });
    // train-0 and train-1 (minMember 2) run on gang-a and gang-b; spare-1 and spare-2 have room for both.
    h.seed(['gang-a', 'gang-b', 'spare-1', 'spare-2'].map((n) => gpuNode(cloud, n)));
    runningGang(h);
    h.clock.advance(5 * 60_000); // consolidateAfter has passed
  });
  afterAll(async () => {
    await h?.close();
  });

  const proposal = (method: string, candidates: string[]) => ({
    cluster: h.clusterName,
    passId: `p-${candidates.join('-')}`,
    createdAt: h.clock.now().getTime(),
    proposals: [{ method, reason: 'Underutilized', candidates, replacements: [], savingsPerHour: 1 }],
  });

  it('the census counts both gang nodes as none (the spares as deletes): neither may leave alone', async () => {
    const r = await censusContainer(h).handler(scheduledEvent(h.clock), lambdaContext('census'));
    expect(r).toMatchObject({ outcome: 'ran', candidates: 4 });
    const [stored] = await h.store().listCensus(h.clusterName);
    expect(stored?.counts).toMatchObject({ delete: 2, replace: 0, none: 2, empty: 2 });
  });

  it('a delete of one gang node is refused at validation naming the gang, and nothing is tainted', async () => {
    const r = await admitHandler(h)(
      proposal('single-node-consolidation', ['gang-a']),
      lambdaContext('admit'),
    );
    expect(r).toEqual({
      outcome: 'ran',
      admitted: [],
      rejected: [{ candidates: ['gang-a'], stage: 'validation' }],
      expired: 0,
    });
    expect(h.metrics.total(LOOP_METRICS.admissionFailuresTotal, { stage: 'validation' })).toBe(1);
    const logged = h.logger.entries.find((e) => e.fields.stage === 'validation');
    expect(logged?.fields.detail).toBe('gang: gang default/train would be split: its nodes gang-b stay');
    expect(taintsOf(h, 'gang-a')).not.toContain(DISRUPTED_TAINT_KEY);
    expect(await h.store().listCommandsByStatus(h.clusterName, 'launching')).toEqual([]);
  });

  it('a delete of both gang nodes together is admitted', async () => {
    const r = await admitHandler(h)(
      proposal('multi-node-consolidation', ['gang-a', 'gang-b']),
      lambdaContext('admit'),
    );
    expect(r).toEqual({
      outcome: 'ran',
      admitted: [expect.any(String)],
      rejected: [],
      expired: 0,
    });
    expect(taintsOf(h, 'gang-a')).toContain(DISRUPTED_TAINT_KEY);
    expect(taintsOf(h, 'gang-b')).toContain(DISRUPTED_TAINT_KEY);
  });
});
