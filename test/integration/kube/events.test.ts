// Events as Karpenter's recorder and client-go's correlator write them, against the emulator through the real
// adapter: a repeat within the dedupe window is dropped (in a container, and by another container that meets
// the same event's name), a repeat after it counts into the same Event (count 2), and the token bucket of a
// rate-limited reason drops what exceeds its burst.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ClusterEvent } from '../../../shared/ports/cluster/index.ts';
import { startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const t0 = new Date('2026-01-01T00:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);

async function eventsAbout(name: string): Promise<{ reason: string; count?: number; message: string }[]> {
  const res = await fetch(
    `${h.url}/api/v1/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name}`)}`,
    { headers: { Authorization: 'Bearer test-token' } },
  );
  return ((await res.json()) as { items: { reason: string; count?: number; message: string }[] }).items;
}

it('drops a repeat within the window, in one container and across two, and counts one after it', async () => {
  const e: ClusterEvent = {
    involved: { kind: 'Node', name: 'dedupe-node', uid: 'u1' },
    type: 'Normal',
    reason: 'Unconsolidatable',
    message: "Can't replace with a cheaper node",
    dedupeValues: ['u1'],
  };
  const a = h.cluster();
  await a.recordEvent({ ...e, at: t0 });
  await a.recordEvent({ ...e, at: later(30_000) }); // this container's cache: dropped without a request
  await h.cluster().recordEvent({ ...e, at: later(60_000) }); // another container: 409, within the window
  expect((await eventsAbout('dedupe-node')).map((x) => x.count)).toEqual([1]);
  await h.cluster().recordEvent({ ...e, at: later(3 * 60_000) }); // past 2 minutes: the same Event, counted
  expect(await eventsAbout('dedupe-node')).toEqual([
    expect.objectContaining({ reason: 'Unconsolidatable', count: 2, message: e.message }),
  ]);
});

it('keeps a different message about the same object as its own event', async () => {
  const c = h.cluster();
  const base = {
    involved: { kind: 'Node', name: 'two-messages' },
    type: 'Normal',
    reason: 'DisruptionBlocked',
  } as const;
  await c.recordEvent({ ...base, message: 'Node is nominated for a pending pod', at: t0 });
  await c.recordEvent({ ...base, message: "Node isn't initialized", at: t0 });
  expect((await eventsAbout('two-messages')).map((x) => x.message).sort()).toEqual([
    'Node is nominated for a pending pod',
    "Node isn't initialized",
  ]);
});

it('spends a token bucket per rate-limited reason: a burst of 10, then 5 a second', async () => {
  const c = h.cluster();
  const nominate = (i: number, at: Date) =>
    c.recordEvent({
      involved: { kind: 'Pod', name: `rl-${i}`, namespace: 'default', uid: `p${i}` },
      type: 'Normal',
      reason: 'Nominated',
      message: 'Pod should schedule on: nodeclaim/x',
      at,
      dedupeValues: [`p${i}`],
      rateLimit: { perSecond: 5, burst: 10 },
    });
  for (let i = 0; i < 15; i++) await nominate(i, t0);
  for (let i = 15; i < 25; i++) await nominate(i, later(1_000)); // one second on: 5 more tokens
  const written = [];
  for (let i = 0; i < 25; i++) if ((await eventsAbout(`rl-${i}`)).length) written.push(i);
  expect(written).toEqual([...Array.from({ length: 10 }, (_, i) => i), 15, 16, 17, 18, 19]);
});
