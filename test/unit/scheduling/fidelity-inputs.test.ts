// Karpenter v1.14 rules on what a snapshot asks for (issue 35): architecture from the catalog's labels, pod-level
// resources and NodePool node limits, through the same path as `kraftsman simulate`, in both modes.
import { describe, expect, it } from 'vitest';
import { catalog, node, nodePool, pod, simulate } from '../../fixtures/builders/index.ts';

const ARCH = 'kubernetes.io/arch';
const MODES = [false, true] as const;

describe('architecture from the catalog', () => {
  // the catalog's labels declare the arch (docs/contract.md); Karpenter's instance types carry kubernetes.io/arch
  // as a requirement (cloudprovider InstanceType.Requirements), so a pod selecting arm64 gets only arm64 types
  const types = catalog([
    {
      name: 'a-4',
      cloud: 'aws',
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      labels: { [ARCH]: 'arm64' },
      offerings: [{ zone: 'us-east-1a', capacityType: 'on-demand', price: 0.1, available: true }],
    },
  ]);

  for (const upstream of MODES)
    it(`gives an arm64 pod arm64 types only, and an amd64 pod none of them (upstream: ${upstream})`, () => {
      const arm = pod('arm', { spec: { nodeSelector: { [ARCH]: 'arm64' } } });
      const s = simulate([nodePool(), arm, pod('x86', { spec: { nodeSelector: { [ARCH]: 'amd64' } } })], {
        types,
        upstream,
      });
      expect(s.claimOf('arm').instanceTypes).toEqual(['a-4']);
      expect(s.claimOf('x86').instanceTypes).not.toContain('a-4');
    });
});

describe('pod-level resources', () => {
  // component-helpers resource.PodRequests (v0.35, what Karpenter's resources.Ceiling calls): a pod-level
  // request of cpu or memory replaces the containers' sum; an unset one defaults to the pod-level limit when no
  // container asks for it (the API server's defaultPodRequests)
  const withPodResources = (name: string, resources: Record<string, unknown>) => {
    const containers = [{ name: 'c', resources: { requests: { cpu: '100m' } } }];
    return pod(name, { spec: { containers, resources } });
  };

  for (const upstream of MODES)
    it(`sizes the claim by the pod-level request, not the containers' (upstream: ${upstream})`, () => {
      const s = simulate([nodePool(), withPodResources('big', { requests: { cpu: '3' } })], { upstream });
      expect(s.claimOf('big').cheapest?.instanceType).toBe('s-4');
    });

  it('takes a pod-level limit as the request of a resource no container and no pod-level request sets', () => {
    const p = withPodResources('mem', { limits: { memory: '20Gi' } });
    expect(simulate([nodePool(), p]).claimOf('mem').cheapest?.instanceType).toBe('s-8');
  });

  it('keeps the containers’ sum where the pod sets only a limit for a resource they request', () => {
    const p = withPodResources('cpu', { limits: { cpu: '6' } });
    expect(simulate([nodePool(), p]).claimOf('cpu').cheapest?.instanceType).toBe('s-2');
  });
});

describe('NodePool node limits', () => {
  // Karpenter's Scheduler.addToNewNodeClaim: a pool whose `nodes` limit is used up (each existing node counts one,
  // StateNode.Capacity) is skipped — the next pool by weight takes the pod
  const limited = (nodes: string) => nodePool('heavy', { weight: 10, limits: { nodes } });
  const fleet = [node('n1', { pool: 'heavy', type: 's-2' }), pod('full', { cpu: '1500m', node: 'n1' })];

  for (const upstream of MODES)
    it(`skips a pool at its node limit for the next pool by weight (upstream: ${upstream})`, () => {
      const s = simulate([limited('1'), nodePool('light'), ...fleet, pod('p', { cpu: '1500m' })], {
        upstream,
      });
      expect(s.claimOf('p').nodePool).toBe('light');
      expect(
        simulate([limited('2'), nodePool('light'), ...fleet, pod('p', { cpu: '1500m' })]).claimOf('p')
          .nodePool,
      ).toBe('heavy');
    });

  it('counts every claim the run opens as one node', () => {
    const apart = (n: string) =>
      pod(n, {
        cpu: '1500m',
        labels: { app: 'a' },
        spec: {
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'a' } } },
              ],
            },
          },
        },
      });
    const s = simulate([nodePool('only', { limits: { nodes: '2' } }), apart('a1'), apart('a2'), apart('a3')]);
    expect(s.pods.filter((p) => p.result === 'new')).toHaveLength(2);
    expect(s.pods.find((p) => p.result === 'unschedulable')).toMatchObject({
      reason: expect.stringMatching(/node limits have been exhausted/),
    });
  });

  it('does not count a deleting node against the limit (cluster.Nodes().Active())', () => {
    const leaving = node('n1', { pool: 'heavy', type: 's-2' });
    (leaving.metadata as Record<string, unknown>).deletionTimestamp = '2026-09-01T00:00:00Z';
    const s = simulate([limited('1'), nodePool('light'), leaving, pod('p', { cpu: '1500m' })]);
    expect(s.claimOf('p').nodePool).toBe('heavy');
  });
});
