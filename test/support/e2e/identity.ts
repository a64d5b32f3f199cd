// What the identity end-to-end tests share (docs/mechanisms/identity.md#instances): Nodes and NodeClaims seeded
// with a providerID of the test's choosing, the refusal events recorded on them, whether an emulator's instance
// still runs, and a second deployment of the same cluster name (its own state table, hence its own id).
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import type { GceWorld } from '../../../local/gce/world.ts';
import { buildEc2Provider, buildStateStore, deploymentSource } from '../../../functions/compose/index.ts';
import { buildGceProvider } from '../../../functions/compose/gce.ts';
import type { Closer } from '../../../functions/compose/local.ts';
import { REFUSAL_EVENT_REASON } from '../../../shared/loop/refusals.ts';
import { TERMINATION_STARTED } from '../../../shared/loop/termination.ts';
import { LOCAL_CREDENTIALS } from '../dynamodb/credentials.ts';
import { createTable } from '../dynamodb/tables.ts';
import { fakeGoogleAuth, type E2eHarness } from './harness.ts';

/** A Node kraftsman already started terminating (drained of nothing): the next lifecycle run finishes it. */
export function drainingNode(h: E2eHarness, name: string, providerID: string, pool: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'karpenter.sh/nodepool': pool },
      annotations: { [TERMINATION_STARTED]: h.clock.now().toISOString() },
    },
    spec: { providerID },
    status: {},
  };
}

/** A NodeClaim whose status names `providerID` (launched and registered long ago, as far as it says). */
export function claimNaming(name: string, providerID: string, pool: string): KubeObject {
  const gcp = providerID.startsWith('gce://');
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels: { 'karpenter.sh/nodepool': pool } },
    spec: {
      nodeClassRef: gcp
        ? { group: 'karpenter.k8s.gcp', kind: 'GCENodeClass', name: 'gcp-gpu' }
        : { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'aws-gpu' },
      requirements: [],
    },
    status: { providerID },
  };
}

/** The DestructiveActionRefused events recorded on one object, as `kubectl get events` would list them. */
export function refusalEvents(
  h: E2eHarness,
  kind: string,
  name: string,
): { reason: string; message: string }[] {
  return h
    .list('Event')
    .map(
      (e) =>
        e as unknown as {
          involvedObject?: { kind?: string; name?: string };
          reason?: string;
          message?: string;
        },
    )
    .filter((e) => e.involvedObject?.kind === kind && e.involvedObject?.name === name)
    .filter((e) => e.reason === REFUSAL_EVENT_REASON)
    .map((e) => ({ reason: String(e.reason), message: String(e.message) }));
}

export const gceRunning = (world: GceWorld, zone: string, name: string): boolean =>
  world.instances.get(world.key(zone, name))?.status === 'RUNNING';

export const ec2Running = (h: E2eHarness, providerID: string): boolean =>
  h.ec2.world.instances.get(providerID.split('/').at(-1) ?? '')?.state === 'running';

/**
 * Another deployment of the same cluster name against the same clouds: its own state table, so its own
 * deployment id, and its providers built as its functions would build them.
 */
export async function secondDeployment(h: E2eHarness, closer: Closer) {
  const tableName = `kraftsman-${h.clusterName}-${randomUUID().slice(0, 8)}`;
  await createTable(h.dynamo, tableName);
  const store = buildStateStore({ ...h.settings.store, tableName }, h.clock, LOCAL_CREDENTIALS, closer);
  const deployment = deploymentSource(store, h.clusterName, randomUUID);
  return {
    deployment,
    ec2: buildEc2Provider(
      h.settings.ec2,
      h.clock,
      h.logger,
      LOCAL_CREDENTIALS,
      closer,
      undefined,
      deployment,
    ),
    gce: buildGceProvider(h.settings.gce, h.clock, h.logger, fakeGoogleAuth(), closer, undefined, deployment),
  };
}
