// The consolidated-state skip through the consolidate handler against the emulators and DynamoDB Local
// (docs/mechanisms/consolidated-state.md): once a pass found the fleet consolidated, later invocations do not walk
// while nothing Karpenter's cluster state watches has changed, for at most five minutes; a bound pod's event, a
// NodePool event, or the five minutes re-arm it, and a pass that finds work forgets the mark. Skips are counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { nodeOf, removePod, runConsolidate } from '../../support/e2e/disruption-handlers.ts';
import { nodePool, pod, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { bringUp } from '../../support/e2e/steps.ts';

const M = KRAFTSMAN_METRICS;

describe('a pass with nothing new to decide is skipped', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    // A GPU pod on the cheapest GPU type: nothing to consolidate, the fleet is consolidated.
    h = await startHarness({
      objects: [nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge', 'g5.2xlarge'] })],
    });
    wireLaunchers(h);
    await bringUp(h, [pod('train', { gpus: 1, replicaSet: 'train' })]);
    h.clock.advance(5 * 60_000); // consolidateAfter has passed
  });
  afterAll(async () => {
    await h?.close();
  });

  const skips = () => h.metrics.total(M.consolidatedSkipsTotal);
  /** The single-node walk looks its candidate up in the negative cache each time it runs. */
  const walks = () => h.metrics.named(M.negativeCacheLookupsTotal).length;
  const passAfter = async (ms: number) => {
    h.clock.advance(ms);
    return runConsolidate(h);
  };
  const patch = (kind: string, namespace: string | undefined, name: string, annotations: object) =>
    h.kube.store.patch(
      h.kube.typeOf(kind),
      namespace,
      name,
      'application/merge-patch+json',
      { metadata: { annotations } },
      undefined,
    );

  it('skips the walk while nothing changed since the fleet was found consolidated, and counts the skip', async () => {
    expect(nodeOf(h, 'train')).toBeDefined();
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', pass: 'consolidated' });
    const stored = (await h.store().loadPassState(h.clusterName)).consolidated;
    // since: when the pass began (the clock runs on in real time while it walks)
    expect(stored?.since.getTime()).toBeLessThanOrEqual(h.clock.now().getTime());
    expect(stored?.since.getTime()).toBeGreaterThan(h.clock.now().getTime() - 60_000);
    const [walked, skipped] = [walks(), skips()];

    for (const minute of [1, 2, 3]) {
      expect(await passAfter(60_000), `minute ${minute}`).toMatchObject({
        outcome: 'ran',
        pass: 'unchanged',
      });
    }
    // multi- and single-node consolidation, each passed over three times
    expect(skips()).toBe(skipped + 6);
    expect(walks()).toBe(walked);
    expect(h.metrics.total(M.passOutcomesTotal, { outcome: 'unchanged' })).toBe(3);
    // The mark is left as the consolidated pass wrote it: skipping writes nothing.
    expect((await h.store().loadPassState(h.clusterName)).consolidated).toEqual(stored);
  });

  it('walks again five minutes after the view was first seen (Karpenter re-arms its state then)', async () => {
    // 3 minutes have passed since the mark; at 4 it still skips, at 5 it walks.
    expect(await passAfter(60_000)).toMatchObject({ pass: 'unchanged' });
    const walked = walks();
    expect(await passAfter(60_000)).toMatchObject({ pass: 'consolidated' });
    expect(walks()).toBe(walked + 1);
    expect(await passAfter(60_000)).toMatchObject({ pass: 'unchanged' });
  });

  it('walks again after an event of a bound pod, and after a NodePool event', async () => {
    patch('Pod', 'default', 'train', { touched: 'pod' });
    expect(await passAfter(1_000)).toMatchObject({ pass: 'consolidated' });
    expect(await passAfter(1_000)).toMatchObject({ pass: 'unchanged' });
    patch('NodePool', undefined, 'aws-gpu', { touched: 'pool' });
    expect(await passAfter(1_000)).toMatchObject({ pass: 'consolidated' });
    expect(await passAfter(1_000)).toMatchObject({ pass: 'unchanged' });
  });

  it('a pass that finds work forgets the mark, so the next one walks', async () => {
    removePod(h, 'train'); // the node is empty now: emptiness proposes it
    h.clock.advance(60_000);
    h.invoker.register('admit', async () => undefined); // hand-off only: nothing is admitted
    expect(await runConsolidate(h)).toMatchObject({ pass: 'proposed', handedOff: 1 });
    expect((await h.store().loadPassState(h.clusterName)).consolidated).toBeUndefined();
    expect(await passAfter(1_000)).toMatchObject({ pass: 'proposed' });
  });
});
