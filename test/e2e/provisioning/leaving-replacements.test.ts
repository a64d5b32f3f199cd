// An open disruption command's candidates are leaving, so their pods are provisioning demand — and the
// replacements the command created for exactly those pods are the capacity they land on: provision opens no
// second claim for them, whether the replacement is launched or its launch has not been answered yet
// (docs/mechanisms/provisioning-demand.md#disruptions-own-replacements). Through the consolidate, admit and
// provision handlers, against the emulators and DynamoDB Local.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  nodeOf,
  removePod,
  runConsolidate,
  startReplacementHarness,
} from '../../support/e2e/disruption-handlers.ts';
import { pod, type E2eHarness } from '../../support/e2e/index.ts';
import { bringUp, claimNames, nodeOf as nodeOfClaim, provisionOnce } from '../../support/e2e/steps.ts';

describe('a disruption command’s replacements cover its candidates’ pods', () => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startReplacementHarness();
  });
  afterEach(async () => {
    await h?.close();
  });

  /** An underused g5.12xlarge left with one 1-GPU pod of a ReplicaSet, and a command admitted to replace it. */
  const commandStarted = async (holdLaunches = false) => {
    const aws = { nodeSelector: { 'kraftsman.dev/cloud': 'aws' } };
    await bringUp(h, [
      pod('batch', { gpus: 3, ...aws }),
      pod('keep-a', { gpus: 1, replicaSet: 'keep', ...aws }),
    ]);
    const candidate = nodeOf(h, 'keep-a');
    expect(nodeOf(h, 'batch')).toBe(candidate);
    removePod(h, 'batch');
    h.clock.advance(5 * 60_000);
    if (holdLaunches) h.invoker.register('launch-aws', () => Promise.resolve(undefined));
    const before = claimNames(h);
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', handedOff: 1 });
    const commands = await h.store().listCommandsByStatus(h.clusterName, 'launching');
    expect(commands.flatMap((c) => c.candidates)).toEqual([candidate]);
    const replacements = [...claimNames(h)].filter((n) => !before.has(n));
    expect(replacements).toHaveLength(1);
    return { candidate: String(candidate), replacement: replacements[0] as string };
  };

  it('a launched replacement: the candidate’s pod is placed on it, no claim created', async () => {
    const { replacement } = await commandStarted();
    const known = claimNames(h);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 0, unschedulable: 0 });
    expect(claimNames(h)).toEqual(known);
    const n = (await h.store().loadPassState(h.clusterName)).nominations.get('default/keep-a');
    // registered by now, not initialized: the capacity goes by its Node's name
    const claim = h.list('NodeClaim').find((c) => c.metadata.name === replacement);
    const node = claim && nodeOfClaim(h, claim);
    expect(node).toBeDefined();
    expect(n?.nodeName).toBe(node?.metadata.name);
  });

  it('a replacement whose launch has not been answered yet still covers the pod', async () => {
    const { replacement } = await commandStarted(true); // its launch held back
    const known = claimNames(h);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 0, unschedulable: 0 });
    expect(claimNames(h)).toEqual(known);
    const n = (await h.store().loadPassState(h.clusterName)).nominations.get('default/keep-a');
    expect(n?.nodeName).toBe(replacement);
  });
});
