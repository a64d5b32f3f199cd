// What the fleet's summary reads back from what the functions recorded: interruptions from the termination
// causes lifecycle stamps (also on a Node's last state when it is deleted), coverage and skip reasons from
// the disruption metrics. Against the Kubernetes emulator's own store, no server needed.
import { describe, expect, it } from 'vitest';
import { defaultCrds, KubeApiEmulator, type KubeObject } from '../../../local/kube-api/index.ts';
import { InterruptionRecorder } from '../../../local/fleet/interruptions.ts';
import { FleetMetrics } from '../../../local/fleet/log.ts';
import { skipReasons, walkCoverage } from '../../../local/fleet/recorded.ts';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';

const node = (name: string, providerID: string, cause?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: { 'karpenter.sh/nodepool': 'gpu' },
    ...(cause ? { annotations: { 'kraftsman.dev/termination-cause': cause } } : {}),
  },
  spec: { providerID },
});
const claim = (name: string): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name, labels: { 'karpenter.sh/nodepool': 'gpu' } },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [],
  },
});

describe('the interruptions of a run', () => {
  it('lists stamped causes, from live objects and from a deleted Node, without kraftsman’s own', () => {
    const kube = new KubeApiEmulator({ crds: defaultCrds() });
    kube.seed([
      node('a', 'aws:///us-east-1a/i-a', 'spot-interruption'),
      node('b', 'gce://p/us-central1-a/b'),
      node('c', 'aws:///us-east-1a/i-c', 'instance-terminated'),
      node('d', 'aws:///us-east-1a/i-d', 'rebalance-recommendation'),
    ]);
    const rec = new InterruptionRecorder(kube);
    rec.sample(1);
    // b is preempted, and its Node goes before the next sample: its last state still says why.
    const t = kube.typeOf('Node');
    kube.store.patch(
      t,
      undefined,
      'b',
      'application/merge-patch+json',
      {
        metadata: { annotations: { 'kraftsman.dev/termination-cause': 'preempted' } },
      },
      undefined,
    );
    kube.store.delete(t, undefined, 'b');
    kube.seed([claim('replacement')]);
    rec.sample(2);
    // c was a command's candidate: its instance-terminated is kraftsman's own doing.
    const commands = [
      {
        id: 'x',
        method: 'emptiness',
        decision: 'delete',
        candidates: ['c'],
        replacements: [],
        savingsPerHour: 1,
        outcome: 'completed' as const,
        crossCloud: false,
      },
    ];
    expect(rec.interruptions(commands)).toEqual([
      { node: 'a', cloud: 'aws', cause: 'spot-interruption', replaced: true },
      { node: 'b', cloud: 'gcp', cause: 'preempted', replaced: true },
    ]);
  });
});

describe('coverage and skip reasons from the disruption metrics', () => {
  it('weights each pool’s coverage by its candidates and sums skips by reason', () => {
    const m = new FleetMetrics();
    expect(walkCoverage(m)).toBeNull();
    m.gauge(KRAFTSMAN_METRICS.walkCycleCoverage, 1, { nodepool: 'gpu' });
    m.gauge(KRAFTSMAN_METRICS.walkCandidates, 30, { nodepool: 'gpu' });
    m.gauge(KRAFTSMAN_METRICS.walkCycleCoverage, 0.5, { nodepool: 'cpu' });
    m.gauge(KRAFTSMAN_METRICS.walkCandidates, 10, { nodepool: 'cpu' });
    m.gauge(KRAFTSMAN_METRICS.walkDepth, 12, { nodepool: 'gpu' });
    m.gauge(KRAFTSMAN_METRICS.walkDepth, 4, { nodepool: 'cpu' });
    expect(walkCoverage(m)).toBeCloseTo((30 + 5) / 40);
    // A walk that ran to the end of the gpu list restarted its cycle (gauge 0): it reached all 30.
    m.gauge(KRAFTSMAN_METRICS.walkCycleCoverage, 0, { nodepool: 'gpu' });
    m.gauge(KRAFTSMAN_METRICS.walkDepth, 30, { nodepool: 'gpu' });
    expect(walkCoverage(m)).toBeCloseTo((30 + 5) / 40);
    m.count(KRAFTSMAN_METRICS.candidateSkipsTotal, 2, { reason: 'pdb', method: 'emptiness' });
    m.count(KRAFTSMAN_METRICS.candidateSkipsTotal, 3, { reason: 'pdb', method: 'single-node' });
    m.count(KRAFTSMAN_METRICS.candidateSkipsTotal, 1, { reason: 'do-not-disrupt', method: 'none' });
    expect(skipReasons(m)).toEqual({ pdb: 5, 'do-not-disrupt': 1 });
  });
});
