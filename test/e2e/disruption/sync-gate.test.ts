// The cluster-sync gate through the consolidate handler (docs/mechanisms/sync-gate.md), against the emulators
// and DynamoDB Local. An empty GPU node would be proposed for deletion; NodeClaims without a providerID of each
// class (replacement, in-flight, launch-deferred, launch-failed, deleting) hold the pass or not as the policy
// says — a replacement of an open command under every policy — and every check that found one is counted by
// the highest class present and whether the pass waited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_LABEL } from '../../../shared/disruption/replacement-claim.ts';
import type { SyncPolicy } from '../../../shared/disruption/sync-gate.ts';
import { SYNC_CHECKS_METRIC } from '../../../shared/loop/sync-check.ts';
import type { KubeObject } from '../../../local/kube-api/index.ts';
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

const FINALIZER = 'karpenter.sh/termination';

/** A NodeClaim of pool aws-gpu that has not launched (no providerID), with an optional Launched reason. */
function unlaunched(
  name: string,
  s: { launchReason?: string; labels?: Record<string, string>; finalizers?: string[] } = {},
): KubeObject {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name,
      labels: { 'karpenter.sh/nodepool': 'aws-gpu', ...(s.labels ?? {}) },
      ...(s.finalizers ? { finalizers: s.finalizers } : {}),
    },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'aws-gpu' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] }],
    },
    status: s.launchReason
      ? {
          conditions: [
            {
              type: 'Launched',
              status: 'Unknown',
              reason: s.launchReason,
              message: 'launch attempt',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        }
      : {},
  };
}

describe('the sync gate through the consolidate handler', () => {
  let h: E2eHarness;
  const handedOff: unknown[] = [];
  beforeAll(async () => {
    h = await startHarness({
      objects: [nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge', 'g5.2xlarge'] })],
    });
    wireLaunchers(h);
    await bringUp(h, [pod('job', { gpus: 1 })]);
    removePod(h, 'job');
    h.clock.advance(5 * 60_000); // the empty node is past consolidateAfter
    h.invoker.register('admit', async (p) => void handedOff.push(p));
    expect(nodeOf(h, 'job')).toBeUndefined();
  });
  afterAll(async () => {
    await h?.close();
  });

  const pass = async (syncPolicy: SyncPolicy) => {
    const r = await consolidateHandler(h, { syncPolicy })(
      scheduledEvent(h.clock),
      lambdaContext('consolidate'),
    );
    await h.invoker.settled();
    return r;
  };
  const checks = (reason: string, outcome: 'waited' | 'proceeded') =>
    h.metrics.total(SYNC_CHECKS_METRIC, { reason, outcome });
  const remove = (name: string) => h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, name);

  it('baseline: with every claim launched the pass proposes the empty node and counts no check', async () => {
    expect(await pass('Strict')).toMatchObject({ outcome: 'ran', pass: 'proposed', handedOff: 1 });
    expect(h.metrics.named(SYNC_CHECKS_METRIC)).toEqual([]);
  });

  it('Strict waits on a claim deleting before it launched', async () => {
    h.seed([unlaunched('dying', { finalizers: [FINALIZER] })]);
    remove('dying'); // held by its finalizer: deleting, never to launch
    expect(await pass('Strict')).toMatchObject({ outcome: 'ran', pass: 'unsynced', handedOff: 0 });
    expect(checks('deleting', 'waited')).toBe(1);
  });

  it('IgnoreFailedOrDeferred runs past deleting, failed and deferred launches, not an in-flight claim', async () => {
    h.seed([
      unlaunched('failed', { launchReason: 'LaunchFailed' }),
      unlaunched('deferred', { launchReason: 'CapacityEvidencePending' }),
    ]);
    expect(await pass('Strict')).toMatchObject({ pass: 'unsynced' });
    expect(checks('launch_deferred', 'waited')).toBe(1);
    expect(await pass('IgnoreFailedOrDeferred')).toMatchObject({ pass: 'proposed', handedOff: 1 });
    expect(checks('launch_deferred', 'proceeded')).toBe(1);
    h.seed([unlaunched('provisioned')]);
    expect(await pass('IgnoreFailedOrDeferred')).toMatchObject({ pass: 'unsynced', handedOff: 0 });
    expect(checks('in_flight', 'waited')).toBe(1);
  });

  it('IgnoreNonReplacements runs past an in-flight claim, not a replacement labelled by admission', async () => {
    expect(await pass('IgnoreNonReplacements')).toMatchObject({ pass: 'proposed', handedOff: 1 });
    expect(checks('in_flight', 'proceeded')).toBe(1);
    h.seed([unlaunched('labelled-replacement', { labels: { [COMMAND_LABEL]: 'cmd0000001' } })]);
    expect(await pass('IgnoreNonReplacements')).toMatchObject({ pass: 'unsynced', handedOff: 0 });
    expect(checks('replacement', 'waited')).toBe(1);
    remove('labelled-replacement');
  });

  it('a replacement an open command names is waited on under every policy', async () => {
    const store = h.store();
    const lock = await store.acquireLease({
      cluster: h.clusterName,
      name: 'admission',
      owner: 'sync-gate-test',
      ttlMs: 60_000,
    });
    await store.admitCommand(lock, {
      id: 'cmd0000002',
      method: 'single-node-consolidation',
      decision: 'replace',
      candidates: ['gone-node'],
      replacements: ['named-replacement'],
    });
    await store.releaseLease(lock);
    h.seed([unlaunched('named-replacement')]); // no command label: known only from the store's command
    for (const policy of ['Strict', 'IgnoreFailedOrDeferred', 'IgnoreNonReplacements'] as const)
      expect(await pass(policy)).toMatchObject({ pass: 'unsynced', handedOff: 0 });
    expect(checks('replacement', 'waited')).toBe(1 + 3);
    // Once it is gone, only claims the policy runs past are left.
    remove('named-replacement');
    expect(await pass('IgnoreNonReplacements')).toMatchObject({ pass: 'proposed', handedOff: 1 });
  });
});
