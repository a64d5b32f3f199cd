// The objects and probes of test/unit/loop/drain.test.ts: a candidate's NodeClaim, critical and do-not-disrupt
// pods, instances planted on the recording fake cloud, and what the emulator and the cloud hold after a step.
import { nodeClaimName } from '../../../shared/model/names.ts';
import { providerId } from '../../../shared/ports/cloud-provider/index.ts';
import type { CandidateIdentity, CommandRecord } from '../../../shared/ports/state-store/records.ts';
import { FAKE_CLUSTER_TAG, FAKE_DEPLOYMENT_TAG, type FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import type { World } from './harness.ts';

type Obj = Record<string, unknown>;
export const pid = (name: string) => `aws:///us-east-1a/i-${name}`;

/** The NodeClaim of Node `node` (its instance is the Node's), with an optional terminationGracePeriod. */
export const claim = (
  nodeName: string,
  s: { tgp?: string; providerID?: string; labels?: Obj } = {},
): Obj => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: {
    name: `${nodeName}-claim`,
    labels: { 'karpenter.sh/nodepool': 'default', ...s.labels },
  },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [],
    ...(s.tgp ? { terminationGracePeriod: s.tgp } : {}),
  },
  status: {
    providerID: s.providerID ?? pid(nodeName),
    nodeName,
    conditions: ['Launched', 'Registered', 'Initialized'].map((type) => ({
      type,
      status: 'True',
      lastTransitionTime: '2026-09-01T08:00:00Z',
    })),
  },
});

export const critical = (p: Obj): Obj => ({
  ...p,
  spec: { ...(p.spec as Obj), priorityClassName: 'system-node-critical' },
});
export const doNotDisrupt = { 'karpenter.sh/do-not-disrupt': 'true' };

export function plant(
  cloud: FakeCloudProvider,
  id: string,
  claimName?: string,
  deployment = cloud.deployment,
) {
  cloud.plant({
    providerId: providerId(id),
    cloud: 'aws',
    instanceType: 's-16',
    zone: 'us-east-1a',
    capacityType: 'on-demand',
    state: 'running',
    launchTime: new Date('2026-09-01T08:00:00Z'),
    tags: { [FAKE_CLUSTER_TAG]: 'test', [FAKE_DEPLOYMENT_TAG]: deployment },
    ...(claimName ? { nodeClaim: nodeClaimName(claimName) } : {}),
  });
}

/** The pods on the node: name → whether it is terminating (evicted). */
export async function podsOn(w: World, nodeName = 'n'): Promise<Record<string, boolean>> {
  const pods = await w.cluster.listPodsOnNode(nodeName);
  return Object.fromEntries(pods.map((p) => [p.metadata.name, p.metadata.deletionTimestamp !== undefined]));
}

export const names = async (w: World) => {
  const { nodes, nodeClaims } = (await w.cluster.readSnapshot()).objects;
  return [...nodes, ...nodeClaims].map((o) => o.metadata.name).sort();
};
export const state = (cloud: FakeCloudProvider, id: string) => cloud.instances.get(providerId(id))?.state;

export interface Setup {
  /** What the command recorded of the candidate, over its Node's uid and provider ID and its claim's name and uid. */
  identity?: Partial<CandidateIdentity>;
  /** A command written before identities were recorded. */
  unrecorded?: boolean;
}

/** A draining command of one candidate, as admission would have recorded it now. */
export async function commandOf(w: World, candidate: string, s: Setup = {}): Promise<CommandRecord> {
  const n = await w.cluster.getNode(candidate);
  const c = (await w.cluster.listNodeClaims()).find((x) => x.metadata.name === `${candidate}-claim`);
  const identity: CandidateIdentity = {
    node: candidate,
    nodeUid: n.metadata.uid!,
    ...(c ? { claim: c.metadata.name, claimUid: c.metadata.uid } : {}),
    providerId: n.spec?.providerID,
    ...s.identity,
  };
  const now = w.clock.now();
  return {
    id: 'cmd-1',
    method: 'single-node-consolidation',
    decision: 'delete',
    candidates: [candidate],
    replacements: [],
    ...(s.unrecorded ? {} : { identities: [identity] }),
    cluster: 'c1',
    seq: 1,
    status: 'draining',
    fencingToken: 1,
    admittedBy: 'admit-1',
    createdAt: now,
    updatedAt: now,
  };
}
