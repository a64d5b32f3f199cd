// An object that fails validation makes its node untouchable until it parses again
// (docs/mechanisms/identity.md#invalid-objects): a NodeClaim written under an older, looser CRD (here a taint
// value the model refuses) would otherwise be skipped from the view, its Node would look unowned, and lifecycle
// would drain and terminate it; consolidation would take it as an empty candidate. A pod that fails to parse
// makes its node undrainable the same way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { BAD_TAINT, writeUnderLooseCrd } from '../../support/e2e/loose-crd.ts';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { TERMINATION_STARTED } from '../../../shared/loop/termination.ts';
import { REFUSAL_EVENT_REASON, REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import { untouchableNodes } from '../../../shared/loop/untouchable.ts';
import { pod, type E2eHarness } from '../../support/e2e/index.ts';
import { startOneTypeGpuHarness } from '../../support/e2e/gpu-pools.ts';
import { runConsolidate, removePod, wireDisruption } from '../../support/e2e/disruption-handlers.ts';
import {
  annotationsOf,
  bringUp,
  claimNames,
  instanceOf,
  lifecycleOnce,
  nodeOf,
  providerIdOf,
  taintsOf,
} from '../../support/e2e/steps.ts';

const MIN = 60_000;

describe('an object that fails validation makes its node untouchable', () => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startOneTypeGpuHarness();
    wireDisruption(h);
  });
  afterEach(async () => {
    await h?.close();
  });

  const onAws = (name: string) =>
    pod(name, { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': 'aws-gpu' } });
  const running = (claim: KubeObject) =>
    h.ec2.world.instances.get(instanceOf(providerIdOf(claim)))?.state === 'running';
  const node = (name: string) => h.list('Node').find((n) => n.metadata.name === name);
  const invalidRefusals = (action: string) =>
    h.metrics.total(REFUSAL_METRIC, { action, reason: 'invalid-object' });
  const eventsOn = (kind: string, name: string) =>
    h
      .list('Event')
      .filter((e) => e.reason === REFUSAL_EVENT_REASON)
      .filter((e) => {
        const o = e.involvedObject as { kind: string; name: string };
        return o.kind === kind && o.name === name;
      });

  it('a NodeClaim the model refuses: its Node is not drained, its instance not terminated, it is no candidate; touchable again once it parses', async () => {
    const [claim] = await bringUp(h, [onAws('invalid-claim')]);
    const n = claim && nodeOf(h, claim);
    if (!claim || !n) throw new Error('no registered claim with a Node');
    const name = String(claim.metadata.name);
    const nodeName = String(n.metadata.name);
    writeUnderLooseCrd(h, name, [BAD_TAINT]);

    const read = await h.cluster().readSnapshot();
    expect(read.invalid).toContainEqual(
      expect.objectContaining({
        kind: 'NodeClaim',
        name,
        nodes: [nodeName],
        providerIds: [providerIdOf(claim)],
      }),
    );
    expect(untouchableNodes(read)).toContain(nodeName);

    // Past the grace that protects launches: an unowned Node would be drained now.
    h.clock.advance(2 * MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', terminated: 0, failed: 0 });
    expect(annotationsOf(node(nodeName) ?? claim)).not.toHaveProperty([TERMINATION_STARTED]);
    expect(taintsOf(node(nodeName) ?? claim).map((t) => t.key)).not.toContain('karpenter.sh/disrupted');
    expect(running(claim)).toBe(true);
    expect(claimNames(h).has(name)).toBe(true);
    expect(invalidRefusals('drain')).toBeGreaterThanOrEqual(1);
    expect(eventsOn('NodeClaim', name).length).toBeGreaterThanOrEqual(1);

    // Empty, it would be consolidation's first candidate.
    removePod(h, 'invalid-claim');
    h.clock.advance(2 * MIN);
    const consolidated = await runConsolidate(h);
    expect(JSON.stringify(consolidated)).not.toContain(`"candidates":["${nodeName}"]`);
    expect(
      h.metrics.total(KRAFTSMAN_METRICS.candidateSkipsTotal, { reason: 'invalid-object' }),
    ).toBeGreaterThanOrEqual(1);

    // Parsing again, it owns its Node; an operator's delete of the claim now drains the (empty) Node and
    // terminates its instance.
    writeUnderLooseCrd(h, name, []);
    expect((await lifecycleOnce(h)).result).toMatchObject({ terminated: 0, failed: 0 });
    expect(annotationsOf(node(nodeName) ?? claim)).not.toHaveProperty([TERMINATION_STARTED]);
    h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, name);
    expect((await lifecycleOnce(h)).result).toMatchObject({ drained: 1, failed: 0 });
    expect(node(nodeName)).toBeUndefined();
    expect(running(claim)).toBe(false);
  });

  it('a pod on the Node that fails to parse makes the Node undrainable', async () => {
    const [claim] = await bringUp(h, [onAws('invalid-pod')]);
    const n = claim && nodeOf(h, claim);
    if (!claim || !n) throw new Error('no registered claim with a Node');
    const nodeName = String(n.metadata.name);
    const t = h.kube.typeOf('Pod');
    const p = h.kube.store.get(t, 'default', 'invalid-pod');
    h.kube.store.update(
      t,
      'default',
      'invalid-pod',
      // A request the model cannot read (the API server refuses a label value with a space: 422 now).
      {
        ...p,
        spec: {
          ...(p.spec as object),
          containers: [{ name: 'c', resources: { requests: { cpu: 'lots' } } }],
        },
      },
      undefined,
    );
    // The operator deletes the claim: a termination request for its Node.
    h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, String(claim.metadata.name));
    h.clock.advance(2 * MIN);
    await lifecycleOnce(h);
    expect(annotationsOf(node(nodeName) ?? claim)).not.toHaveProperty([TERMINATION_STARTED]);
    expect(running(claim)).toBe(true);
    expect(h.list('Pod').map((x) => x.metadata.name)).toContain('invalid-pod');
    expect(invalidRefusals('drain')).toBeGreaterThanOrEqual(1);
    expect(eventsOn('Pod', 'invalid-pod').length).toBeGreaterThanOrEqual(1);
  });
});
