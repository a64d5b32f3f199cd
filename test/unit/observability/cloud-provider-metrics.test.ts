// Karpenter's cloud provider metrics around a provider: each port call timed by controller, method and cloud,
// each failure counted by its error type and rethrown as is, everything else passed through untouched.
import { describe, expect, it } from 'vitest';
import {
  CLOUD_PROVIDER_METRICS,
  withCloudProviderMetrics,
} from '../../../shared/observability/cloud-provider-metrics.ts';
import { InstanceNotFoundError } from '../../../shared/ports/cloud-provider/errors.ts';
import type { Labels, Metrics } from '../../../shared/ports/metrics.ts';

class Recorder implements Metrics {
  readonly counts: { name: string; value: number; labels: Labels }[] = [];
  readonly observed: { name: string; value: number; labels: Labels }[] = [];
  count(name: string, value = 1, labels: Labels = {}) {
    this.counts.push({ name, value, labels });
  }
  gauge() {}
  observe(name: string, value: number, labels: Labels = {}) {
    this.observed.push({ name, value, labels });
  }
}

/** A provider with private state, so a decorator that loses `this` breaks it. */
class Provider {
  readonly cloud = 'aws' as const;
  #calls = 0;
  async list(): Promise<string[]> {
    this.#calls++;
    return ['i-1'];
  }
  async get(id: string): Promise<string> {
    throw new InstanceNotFoundError(`instance ${id} not found`);
  }
  async delete(): Promise<void> {
    throw new Error('boom');
  }
  calls(): number {
    return this.#calls;
  }
}

const clockAt = (...ms: number[]) => {
  let i = 0;
  return { now: () => new Date(ms[Math.min(i++, ms.length - 1)] as number) };
};

describe('withCloudProviderMetrics', () => {
  it('times a call by controller, Karpenter method name and cloud, and keeps the provider working', async () => {
    const m = new Recorder();
    const p = withCloudProviderMetrics(new Provider(), m, clockAt(1_000, 1_250), 'lifecycle');
    expect(await p.list()).toEqual(['i-1']);
    expect(p.calls()).toBe(1); // not a port method: passed through, bound to the provider
    expect(p.cloud).toBe('aws');
    expect(m.observed).toEqual([
      {
        name: CLOUD_PROVIDER_METRICS.durationSeconds,
        value: 0.25,
        labels: { controller: 'lifecycle', method: 'List', provider: 'aws' },
      },
    ]);
    expect(m.counts).toEqual([]);
  });

  it('counts a failure by its error type and rethrows the same error', async () => {
    const m = new Recorder();
    const p = withCloudProviderMetrics(new Provider(), m, clockAt(0), 'orchestrate');
    const err = await p.get('i-9').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstanceNotFoundError);
    await expect(p.delete()).rejects.toThrow('boom');
    expect(m.counts).toEqual([
      {
        name: CLOUD_PROVIDER_METRICS.errorsTotal,
        value: 1,
        labels: { controller: 'orchestrate', method: 'Get', provider: 'aws', error: 'InstanceNotFoundError' },
      },
      {
        name: CLOUD_PROVIDER_METRICS.errorsTotal,
        value: 1,
        labels: { controller: 'orchestrate', method: 'Delete', provider: 'aws', error: 'Error' },
      },
    ]);
    // a failed call is timed too
    expect(m.observed.map((o) => o.labels.method)).toEqual(['Get', 'Delete']);
  });

  it('labels a source without its own cloud with the one given', async () => {
    const m = new Recorder();
    const source = { instanceTypes: async () => [] as const };
    await withCloudProviderMetrics(source, m, clockAt(0), 'consolidate', 'gcp').instanceTypes();
    expect(m.observed[0]?.labels).toEqual({
      controller: 'consolidate',
      method: 'GetInstanceTypes',
      provider: 'gcp',
    });
  });
});
