// Publishing events (shared/loop/events.ts): a write the API server refuses never fails the pass — it is logged
// and counted — and one call writes a bounded number, counting the rest as dropped.
import { describe, expect, it } from 'vitest';
import {
  EVENT_WRITE_FAILURES,
  EVENTS_DROPPED,
  MAX_EVENTS_PER_CALL,
  publishEvents,
} from '../../../shared/loop/events.ts';
import type { ClusterEvent } from '../../../shared/ports/cluster/index.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';

const event = (i: number): ClusterEvent => ({
  involved: { kind: 'Node', name: `n${i}` },
  type: 'Normal',
  reason: 'Unconsolidatable',
  message: "Can't replace with a cheaper node",
});

describe('publishing events', () => {
  it('a refused write is logged and counted, and the pass goes on', async () => {
    const logger = new MemoryLogger();
    const metrics = new RecordingMetrics();
    const cluster = { recordEvent: () => Promise.reject(new Error('events is forbidden')) };
    await expect(publishEvents({ cluster, logger, metrics }, [event(1), event(2)])).resolves.toBeUndefined();
    expect(metrics.total(EVENT_WRITE_FAILURES, { reason: 'Unconsolidatable' })).toBe(2);
    expect(logger.entries.filter((e) => e.message === 'could not record an event')).toHaveLength(2);
  });

  it('writes at most MAX_EVENTS_PER_CALL and counts the rest as dropped', async () => {
    const written: ClusterEvent[] = [];
    const cluster = { recordEvent: async (e: ClusterEvent) => void written.push(e) };
    const metrics = new RecordingMetrics();
    const all = Array.from({ length: MAX_EVENTS_PER_CALL + 7 }, (_, i) => event(i));
    await publishEvents({ cluster, logger: new MemoryLogger(), metrics }, all);
    expect(written).toHaveLength(MAX_EVENTS_PER_CALL);
    expect(metrics.total(EVENTS_DROPPED)).toBe(7);
  });
});
