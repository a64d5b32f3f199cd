// Concurrency on DynamoDB Local (issue 4): competing admitters, a schedule that fires twice, and a
// negative-cache clear racing a pass, each through separate clients as separate Lambda containers would be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockHeldError } from '../../../shared/ports/state-store/errors.ts';
import type { CommandRecord } from '../../../shared/ports/state-store/records.ts';
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { startStateTable } from '../../support/dynamodb/state-table.ts';
import { systemClock } from '../../../shared/adapters/system-clock.ts';
import type { StateTable } from '../../support/dynamodb/state-table.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';

let table: StateTable;
beforeAll(async () => {
  table = await startStateTable(() => startDynamoDbLocal());
});
afterAll(async () => {
  await table?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the admission lock under contention (DynamoDB Local)', () => {
  it('8 admitters × 100 rounds never hold the lock at once and admit one strictly ordered sequence', async () => {
    const cluster = 'contended';
    const ADMITTERS = 8;
    const ROUNDS = 100;
    let inside = 0;
    let overlaps = 0;
    const admitted: { command: CommandRecord; admitter: number; round: number }[] = [];

    const admitter = async (i: number): Promise<void> => {
      const store = table.store(systemClock);
      for (let round = 0; round < ROUNDS; round++) {
        const owner = `admit-${i}-${round}`;
        let lease;
        for (;;) {
          try {
            lease = await store.acquireLease({ cluster, name: 'admission', owner, ttlMs: 60_000 });
            break;
          } catch (error: unknown) {
            if (!(error instanceof LockHeldError)) throw error;
            await pause(20 + Math.random() * 40);
          }
        }
        inside += 1;
        if (inside > 1) overlaps += 1;
        const command = await store.admitCommand(lease, {
          id: `cmd-${i}-${round}`,
          method: 'single-node-consolidation',
          decision: 'delete',
          candidates: [`node-${i}-${round}`],
          replacements: [],
        });
        admitted.push({ command, admitter: i, round });
        inside -= 1;
        await store.releaseLease(lease);
      }
    };
    await Promise.all(Array.from({ length: ADMITTERS }, (_, i) => admitter(i)));

    expect(overlaps).toBe(0);
    const bySeq = [...admitted].sort((a, b) => a.command.seq - b.command.seq);
    // One sequence: 1..800 with no gap and no duplicate, in the order the lock was held.
    expect(bySeq.map((a) => a.command.seq)).toEqual(
      Array.from({ length: ADMITTERS * ROUNDS }, (_, k) => k + 1),
    );
    expect(admitted.map((a) => a.command.seq)).toEqual(bySeq.map((a) => a.command.seq));
    // Fencing tokens grow with the sequence: one acquisition per command here.
    for (let k = 1; k < bySeq.length; k++)
      expect(bySeq[k]!.command.fencingToken).toBeGreaterThan(bySeq[k - 1]!.command.fencingToken);
    // Each admitter's own rounds appear in order.
    for (let i = 0; i < ADMITTERS; i++) {
      const rounds = bySeq.filter((a) => a.admitter === i).map((a) => a.round);
      expect(rounds).toEqual(Array.from({ length: ROUNDS }, (_, r) => r));
    }
    const stored = await table.store(systemClock).listCommandsByStatus(cluster, 'launching');
    expect(stored.map((c) => c.seq)).toEqual(bySeq.map((a) => a.command.seq));
  }, 180_000);
});

describe('pass leases (DynamoDB Local)', () => {
  it('runs a pass fired twice once, also when the second firing comes after the first finished', async () => {
    const clock = new ManualClock();
    const containers = [table.store(clock), table.store(clock), table.store(clock)];
    const runs = new Map<string, number>();
    const pass = async (store: (typeof containers)[number], runId: string, owner: string): Promise<void> => {
      try {
        const lease = await store.acquireLease({
          cluster: 'twice',
          name: 'consolidation',
          owner,
          ttlMs: 120_000,
          runId,
        });
        runs.set(runId, (runs.get(runId) ?? 0) + 1);
        await store.releaseLease(lease);
      } catch (error: unknown) {
        if (!(error instanceof LockHeldError)) throw error;
      }
    };
    for (let n = 0; n < 20; n++) {
      const runId = `evt-${n}`;
      // Two deliveries of one EventBridge event, racing in two containers.
      await Promise.all([pass(containers[0]!, runId, `a-${n}`), pass(containers[1]!, runId, `b-${n}`)]);
      // A late third delivery after the winner released.
      await pass(containers[2]!, runId, `c-${n}`);
    }
    expect([...runs.values()]).toEqual(Array.from({ length: 20 }, () => 1));
  });
});

describe('negative-cache clear (DynamoDB Local)', () => {
  it('is visible to the next reader, also while a pass keeps writing entries stamped with the old epoch', async () => {
    const clock = new ManualClock();
    const [pass, orchestrate, nextPass] = [table.store(clock), table.store(clock), table.store(clock)];
    const cluster = 'clearing';
    for (let round = 0; round < 10; round++) {
      const { epoch } = await pass.loadPassState(cluster);
      const entries = (n: number, from: number) =>
        Array.from({ length: n }, (_, i) => ({
          candidate: `node-${from + i}`,
          fingerprint: `fp-${round}`,
          expiresAt: new Date(clock.now().getTime() + 300_000),
        }));
      await pass.putNegativeEntries(cluster, epoch, entries(100, 0));
      expect((await nextPass.loadPassState(cluster)).negativeCache.size).toBe(100);
      // The clear lands while the pass is still writing its second half under the epoch it read.
      const [cleared] = await Promise.all([
        orchestrate.clearNegativeCache(cluster),
        pass.putNegativeEntries(cluster, epoch, entries(100, 100)),
      ]);
      const seen = await nextPass.loadPassState(cluster);
      expect(cleared).toBe(epoch + 1);
      expect(seen.epoch).toBe(epoch + 1);
      expect(seen.negativeCache.size).toBe(0);
    }
  });
});
