// refuse(): a refused destructive action is counted, logged with its object and reason, and recorded as a
// Warning event on the object; an event that cannot be written does not turn the refusal into a failure.
import { describe, expect, it } from 'vitest';
import { REFUSAL_METRIC, refuse } from '../../../shared/loop/refusals.ts';
import { FakeCluster } from '../../fakes/cluster.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';

describe('refuse', () => {
  it('counts by action and reason, logs the object and providerID, and records a Warning event on the object', async () => {
    const metrics = new RecordingMetrics();
    const logger = new MemoryLogger();
    const cluster = new FakeCluster();
    await refuse(
      { metrics, logger, cluster },
      {
        action: 'terminate',
        reason: 'foreign-project',
        message: 'gce://other-project/us-central1-a/vm-1 is not in project mine',
        providerId: 'gce://other-project/us-central1-a/vm-1',
        object: { kind: 'Node', name: 'vm-1', uid: 'u-1' },
      },
    );
    expect(metrics.total(REFUSAL_METRIC, { action: 'terminate', reason: 'foreign-project' })).toBe(1);
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        fields: expect.objectContaining({
          reason: 'foreign-project',
          providerID: 'gce://other-project/us-central1-a/vm-1',
          object: 'Node/vm-1',
        }),
      }),
    );
    expect(cluster.events).toEqual([
      {
        involved: { kind: 'Node', name: 'vm-1', uid: 'u-1' },
        type: 'Warning',
        reason: 'DestructiveActionRefused',
        message:
          'terminate refused (foreign-project): gce://other-project/us-central1-a/vm-1 is not in project mine',
      },
    ]);
  });

  it('still counts and logs when no object is involved or the event write fails', async () => {
    const metrics = new RecordingMetrics();
    const logger = new MemoryLogger();
    const failing = { recordEvent: () => Promise.reject(new Error('events are forbidden')) };
    await refuse(
      { metrics, logger, cluster: failing },
      {
        action: 'delete-node',
        reason: 'identity-mismatch',
        message: 'node ip-10-0-0-1 has uid u-2, the command recorded u-1',
        object: { kind: 'Node', name: 'ip-10-0-0-1', uid: 'u-2' },
      },
    );
    await refuse({ metrics, logger }, { action: 'terminate', reason: 'foreign-deployment', message: 'i-1' });
    expect(metrics.total(REFUSAL_METRIC)).toBe(2);
    expect(logger.entries.map((e) => e.message)).toEqual([
      'destructive action refused',
      'could not record an event',
      'destructive action refused',
    ]);
  });
});
