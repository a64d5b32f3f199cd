// The consolidate handler with discovery workers (docs/mechanisms/parallel-discovery.md, "In Lambda"): on two
// identical fleets, one underused GPU node per cloud among full ones, a pass with 2 worker threads hands admit the
// same proposals as a pass with none, and the workers answered the walk's candidates (take-back off, so every
// candidate sent waits for a worker's verdict).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVERY_TUNING, SPECULATION_TOTALS } from '../../../shared/adapters/workers/index.ts';
import { parseAdmitPayload } from '../../../shared/loop/admit-payload.ts';
import { consolidateHandler, nodeOf, removePod } from '../../support/e2e/disruption-handlers.ts';
import {
  lambdaContext,
  nodePool,
  pod,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { bringUp } from '../../support/e2e/steps.ts';
import type { KubeObject } from '../../../local/kube-api/index.ts';

const onCloud = (cloud: 'aws' | 'gcp') => ({ nodeSelector: { 'kraftsman.dev/cloud': cloud } });

function withBudget(pool: KubeObject): KubeObject {
  const spec = pool.spec as { disruption: Record<string, unknown> };
  return { ...pool, spec: { ...spec, disruption: { ...spec.disruption, budgets: [{ nodes: '100%' }] } } };
}

/** Per cloud: an underused large node (a batch pod gone, a 1-GPU pod left) and full ones. */
async function fleet(): Promise<{ h: E2eHarness; proposals: unknown[] }> {
  const h = await startHarness({
    objects: [
      withBudget(nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge', 'g5.12xlarge'] })),
      withBudget(nodePool('gcp-gpu', 'gcp', { instanceTypes: ['g2-standard-4', 'g2-standard-24'] })),
    ],
  });
  wireLaunchers(h);
  const proposals: unknown[] = [];
  h.invoker.register('admit', async (p) => void proposals.push(p));
  for (const cloud of ['aws', 'gcp'] as const) {
    await bringUp(h, [
      // a g5.12xlarge has 4 GPUs, a g2-standard-24 2
      pod(`batch-${cloud}`, { gpus: cloud === 'aws' ? 3 : 1, ...onCloud(cloud) }),
      pod(`keep-${cloud}`, { gpus: 1, replicaSet: `keep-${cloud}`, ...onCloud(cloud) }),
    ]);
    await bringUp(
      h,
      [0, 1, 2, 3].map((i) =>
        pod(`full-${cloud}-${i}`, { gpus: 1, replicaSet: `full-${cloud}`, ...onCloud(cloud) }),
      ),
    );
  }
  removePod(h, 'batch-aws');
  removePod(h, 'batch-gcp');
  h.clock.advance(5 * 60_000);
  return { h, proposals };
}

/** A proposal without node names (the two fleets name their nodes apart): its candidates' pods and replacements. */
function comparable(h: E2eHarness, payload: unknown) {
  const podsOn = (node: string) =>
    h
      .list('Pod')
      .map((p) => String(p.metadata.name))
      .filter((name) => nodeOf(h, name) === node)
      .sort();
  return parseAdmitPayload(payload).proposals.map((p) => ({
    method: p.method,
    candidates: p.candidates.map(podsOn),
    replacements: p.replacements.map((r) => [r.nodePool, r.instanceTypes, r.price]),
  }));
}

describe('consolidate with discovery workers', () => {
  const fleets: E2eHarness[] = [];
  beforeAll(() => {
    DISCOVERY_TUNING.takeBack = false;
  });
  afterAll(async () => {
    DISCOVERY_TUNING.takeBack = true;
    await Promise.all(fleets.map((h) => h.close()));
  });

  it('2 worker threads hand admit the same proposals as none, and the workers answered the walk', async () => {
    const one = await fleet();
    const two = await fleet();
    fleets.push(one.h, two.h);
    const run = async (f: { h: E2eHarness }, workers: number) => {
      const r = await consolidateHandler(
        f.h,
        { maxCommands: 2 },
        { workers },
      )(scheduledEvent(f.h.clock), lambdaContext('consolidate'));
      await f.h.invoker.settled();
      return r;
    };
    expect(await run(one, 1)).toMatchObject({ outcome: 'ran', pass: 'proposed', handedOff: 2 });
    const answeredBefore = SPECULATION_TOTALS.answered;
    expect(await run(two, 2)).toMatchObject({ outcome: 'ran', pass: 'proposed', handedOff: 2 });
    expect(SPECULATION_TOTALS.answered).toBeGreaterThan(answeredBefore);
    expect(one.proposals).toHaveLength(1);
    expect(two.proposals).toHaveLength(1);
    const expected = comparable(one.h, one.proposals[0]);
    expect(expected.map((p) => [p.method, p.candidates])).toEqual([
      ['single-node-consolidation', [['keep-aws']]],
      ['single-node-consolidation', [['keep-gcp']]],
    ]);
    expect(comparable(two.h, two.proposals[0])).toEqual(expected);
  });
});
