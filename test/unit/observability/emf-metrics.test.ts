// EMF through Powertools: one document per label set, labels as dimensions, counters summed, histogram
// samples kept as value arrays, units from Karpenter's naming (_seconds, _total).
import { describe, expect, it } from 'vitest';
import { EmfMetrics } from '../../../shared/observability/index.ts';

interface Emf {
  _aws: {
    CloudWatchMetrics: {
      Namespace: string;
      Dimensions: string[][];
      Metrics: { Name: string; Unit: string }[];
    }[];
  };
  [key: string]: unknown;
}

const capture = () => {
  const lines: Emf[] = [];
  const metrics = new EmfMetrics({
    namespace: 'kraftsman',
    serviceName: 'provision',
    defaultDimensions: { cluster: 'prod' },
    sink: (line) => void lines.push(JSON.parse(line) as Emf),
  });
  return { lines, metrics };
};

describe('EmfMetrics', () => {
  it('writes one EMF document per label set with the labels as dimensions', () => {
    const { lines, metrics } = capture();
    metrics.count('karpenter_nodeclaims_created_total', 1, { nodepool: 'gpu' });
    metrics.count('karpenter_nodeclaims_created_total', 2, { nodepool: 'gpu' });
    metrics.count('karpenter_nodeclaims_created_total', 1, { nodepool: 'cpu' });
    metrics.flush();
    expect(lines).toHaveLength(2);
    const gpu = lines.find((l) => l.nodepool === 'gpu');
    expect(gpu).toMatchObject({
      cluster: 'prod',
      service: 'provision',
      karpenter_nodeclaims_created_total: 3,
    });
    const directive = gpu?._aws.CloudWatchMetrics[0];
    expect(directive?.Namespace).toBe('kraftsman');
    expect(directive?.Dimensions[0]).toEqual(expect.arrayContaining(['cluster', 'service', 'nodepool']));
    expect(directive?.Metrics).toEqual([{ Name: 'karpenter_nodeclaims_created_total', Unit: 'Count' }]);
  });

  it("publishes a label with an empty value (drift's consolidation_type) as no dimension, without a warning", () => {
    const { lines, metrics } = capture();
    // Powertools writes its warnings through a Console of its own, on the process's streams
    const warned: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const writeOut = process.stdout.write.bind(process.stdout);
    const spy = (chunk: unknown) => (warned.push(String(chunk)), true);
    process.stderr.write = spy as typeof process.stderr.write;
    process.stdout.write = spy as typeof process.stdout.write;
    try {
      metrics.count('karpenter_voluntary_disruption_decisions_total', 1, {
        decision: 'replace',
        consolidation_type: '',
      });
      metrics.count('karpenter_voluntary_disruption_decisions_total', 1, {
        decision: 'replace',
        consolidation_type: 'single',
      });
      metrics.flush();
    } finally {
      process.stderr.write = write;
      process.stdout.write = writeOut;
    }
    expect(warned.filter((w) => /consolidation_type/.test(w) && !w.includes('CloudWatchMetrics'))).toEqual(
      [],
    );
    expect(lines).toHaveLength(2);
    const drift = lines.find((l) => !('consolidation_type' in l));
    expect(drift?._aws.CloudWatchMetrics[0]?.Dimensions[0]).not.toContain('consolidation_type');
    expect(lines.find((l) => l.consolidation_type === 'single')).toBeDefined();
  });

  it('keeps every histogram sample and marks _seconds metrics as seconds', () => {
    const { lines, metrics } = capture();
    metrics.observe('karpenter_pods_startup_duration_seconds', 1.5);
    metrics.observe('karpenter_pods_startup_duration_seconds', 2.5);
    metrics.gauge('kraftsman_provision_pending_pods', 3);
    metrics.gauge('kraftsman_provision_pending_pods', 7);
    metrics.flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.karpenter_pods_startup_duration_seconds).toEqual([1.5, 2.5]);
    expect(lines[0]?.kraftsman_provision_pending_pods).toBe(7);
    expect(lines[0]?._aws.CloudWatchMetrics[0]?.Metrics).toContainEqual({
      Name: 'karpenter_pods_startup_duration_seconds',
      Unit: 'Seconds',
    });
  });

  it('forgets what it flushed and writes nothing when empty', () => {
    const { lines, metrics } = capture();
    metrics.count('a_total');
    metrics.flush();
    metrics.flush();
    expect(lines).toHaveLength(1);
  });

  it('refuses more labels than EMF allows dimensions, naming the metric', () => {
    const { metrics } = capture();
    const labels = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`l${i}`, 'v']));
    expect(() => metrics.count('too_many_total', 1, labels)).toThrow(/too_many_total: 30 labels/);
  });
});
