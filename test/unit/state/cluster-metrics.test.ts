// The cluster-state gauges a Karpenter dashboard reads, summed per NodePool from one snapshot
// (docs/observability.md "Metrics").
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_METRICS,
  clusterStateMetrics,
  type MetricSample,
} from '../../../shared/state/cluster-metrics.ts';
import { node, nodePool, pod, snapshotOf } from '../disruption/fixtures.ts';

const find = (all: MetricSample[], name: string, labels: Record<string, string>) =>
  all.filter((m) => m.name === name && Object.entries(labels).every(([k, v]) => m.labels[k] === v));
const value = (all: MetricSample[], name: string, labels: Record<string, string> = {}) => {
  const hit = find(all, name, labels);
  expect(hit, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
  return hit[0]!.value;
};

describe('clusterStateMetrics', () => {
  const limited = nodePool('gpu');
  (limited.spec as Record<string, unknown>).limits = { cpu: '64', memory: '256Gi' };
  const objects = [
    limited,
    nodePool('cpu'),
    node('g1', { pool: 'gpu', type: 's-16' }),
    node('g2', { pool: 'gpu', type: 's-8', capacityType: 'spot' }),
    node('c1', { pool: 'cpu', type: 's-4' }),
    pod('a', { node: 'g1', cpu: '3' }),
    pod('b', { node: 'g2', cpu: '2' }),
    pod('ds', { node: 'g1', cpu: '500m', daemon: true }),
    pod('waiting', { cpu: '1' }),
    pod('waiting2', { cpu: '1' }),
  ];
  const all = clusterStateMetrics(snapshotOf(objects));

  it("sums the pool's node capacity (usage) and states its limits, in base units", () => {
    expect(value(all, CLUSTER_METRICS.nodePoolUsage, { nodepool: 'gpu', resource_type: 'cpu' })).toBe(24);
    expect(value(all, CLUSTER_METRICS.nodePoolUsage, { nodepool: 'gpu', resource_type: 'memory' })).toBe(
      96 * 2 ** 30,
    );
    expect(value(all, CLUSTER_METRICS.nodePoolUsage, { nodepool: 'cpu', resource_type: 'cpu' })).toBe(4);
    expect(value(all, CLUSTER_METRICS.nodePoolLimit, { nodepool: 'gpu', resource_type: 'cpu' })).toBe(64);
    expect(value(all, CLUSTER_METRICS.nodePoolLimit, { nodepool: 'gpu', resource_type: 'memory' })).toBe(
      256 * 2 ** 30,
    );
    // a pool without limits publishes none
    expect(find(all, CLUSTER_METRICS.nodePoolLimit, { nodepool: 'cpu' })).toEqual([]);
  });

  it('splits bound requests into pods and DaemonSet pods per pool', () => {
    expect(value(all, CLUSTER_METRICS.nodesTotalPodRequests, { nodepool: 'gpu', resource_type: 'cpu' })).toBe(
      5,
    );
    expect(
      value(all, CLUSTER_METRICS.nodesTotalDaemonRequests, { nodepool: 'gpu', resource_type: 'cpu' }),
    ).toBe(0.5);
    expect(value(all, CLUSTER_METRICS.nodesTotalPodRequests, { nodepool: 'cpu', resource_type: 'cpu' })).toBe(
      0,
    );
    expect(
      value(all, CLUSTER_METRICS.nodesAllocatable, { nodepool: 'gpu', resource_type: 'cpu' }),
    ).toBeGreaterThan(0);
  });

  it('counts pods by phase and nodes, and nodes and cost by pool and capacity type', () => {
    expect(value(all, CLUSTER_METRICS.podsState, { phase: 'Pending' })).toBe(2);
    expect(value(all, CLUSTER_METRICS.podsState, { phase: 'Running' })).toBe(3);
    expect(value(all, CLUSTER_METRICS.nodeCount)).toBe(3);
    expect(value(all, CLUSTER_METRICS.nodes, { nodepool: 'gpu', capacity_type: 'on-demand' })).toBe(1);
    expect(value(all, CLUSTER_METRICS.nodes, { nodepool: 'gpu', capacity_type: 'spot' })).toBe(1);
    // s-16 on demand at 0.05/CPU-hour, s-8 spot at 40% of that
    expect(
      value(all, CLUSTER_METRICS.costPerHour, { nodepool: 'gpu', capacity_type: 'on-demand' }),
    ).toBeCloseTo(0.8);
    expect(value(all, CLUSTER_METRICS.costPerHour, { nodepool: 'gpu', capacity_type: 'spot' })).toBeCloseTo(
      0.16,
    );
  });

  it('publishes cpu, memory, pods and extended resources, not ephemeral storage (each series is billed)', () => {
    const big = node('big', { pool: 'gpu', type: 's-16' });
    (big.status as Record<string, unknown>).allocatable = {
      cpu: '16',
      memory: '64Gi',
      pods: '110',
      'ephemeral-storage': '100Gi',
      'hugepages-2Mi': '0',
      'nvidia.com/gpu': '8',
    };
    const withGpu = clusterStateMetrics(snapshotOf([...objects, big]));
    const types = new Set(
      find(withGpu, CLUSTER_METRICS.nodesAllocatable, { nodepool: 'gpu' }).map((m) => m.labels.resource_type),
    );
    expect(types).toEqual(new Set(['cpu', 'memory', 'pods', 'nvidia.com/gpu']));
  });

  it('leaves out nodes no NodePool manages', () => {
    const withStranger = clusterStateMetrics(
      snapshotOf([...objects, node('byo', { pool: null, type: 's-2' })]),
    );
    expect(find(withStranger, CLUSTER_METRICS.nodes, {}).reduce((s, m) => s + m.value, 0)).toBe(3);
    expect(value(withStranger, CLUSTER_METRICS.nodeCount)).toBe(4);
  });
});
