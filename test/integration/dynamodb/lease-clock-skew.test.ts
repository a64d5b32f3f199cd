// Leases judged with skewed clocks (DynamoDB Local): DynamoDB has no server clock in a condition, so each
// caller's own clock decides. A taker whose clock runs ahead by up to maxClockSkewMs cannot take a lease its
// holder may still write under (shared/adapters/dynamodb/leases.ts, the timeline; docs/deploy.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_CLOCK_SKEW_MS } from '../../../shared/config/dynamodb.ts';
import { LockHeldError, LockLostError } from '../../../shared/ports/state-store/errors.ts';
import { OffsetClock } from '../../fakes/offset-clock.ts';
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { startStateTable, type StateTable } from '../../support/dynamodb/state-table.ts';

let table: StateTable;
beforeAll(async () => {
  table = await startStateTable(() => startDynamoDbLocal());
}, 60_000);
afterAll(async () => {
  await table?.close();
});

const SKEW = 10_000;
const TTL = 60_000;
let clusters = 0;

/** A holder on true time and a taker whose clock runs `SKEW` ahead; `pass(ms)` moves true time for both. */
function skewed(maxClockSkewMs: number) {
  const holderClock = new OffsetClock();
  const takerClock = new OffsetClock();
  takerClock.advance(SKEW);
  const holder = table.store(holderClock, { maxClockSkewMs });
  const taker = table.store(takerClock, { maxClockSkewMs });
  const pass = (ms: number) => {
    holderClock.advance(ms);
    takerClock.advance(ms);
  };
  const lease = (owner: string) => ({
    cluster: `skew${++clusters}`,
    name: 'consolidation' as const,
    owner,
    ttlMs: TTL,
  });
  return { holder, taker, pass, lease };
}

describe('a lease under skewed clocks', () => {
  it('a taker running ahead by up to the bound cannot take it while its holder may still write', async () => {
    const { holder, taker, pass, lease } = skewed(SKEW);
    const mine = await holder.acquireLease(lease('holder'));
    const fence = { cluster: mine.cluster, name: mine.name, owner: mine.owner, token: mine.token };
    pass(TTL - 5_000); // the taker's clock reads 5 s past expiry; the holder's, 5 s before it
    await expect(taker.acquireLease({ ...lease('taker'), cluster: mine.cluster })).rejects.toBeInstanceOf(
      LockHeldError,
    );
    // At that moment the holder's fenced write still lands: it is still the holder, and the only one.
    await holder.heartbeatLease(fence, 1_000);
    pass(2_000); // the holder's clock is past its last expiry: its writes are refused from here on
    await expect(holder.heartbeatLease(fence, TTL)).rejects.toBeInstanceOf(LockLostError);
    // ... and the taker's clock is the bound past that expiry: the lease is free to it.
    const taken = await taker.acquireLease({ ...lease('taker'), cluster: mine.cluster });
    expect(taken.token).toBe(mine.token + 1);
  });

  it('trusting every clock (no bound), the same taker takes a lease its holder still writes under', async () => {
    const { holder, taker, pass, lease } = skewed(0);
    const mine = await holder.acquireLease(lease('holder'));
    pass(TTL - 5_000);
    const taken = await taker.acquireLease({ ...lease('taker'), cluster: mine.cluster });
    expect(taken.owner).toBe('taker'); // the hazard the bound closes: two holders believe in the lease at once
  });

  it('a released lease is free at once, whatever the clocks', async () => {
    const { holder, taker, lease } = skewed(SKEW);
    const mine = await holder.acquireLease(lease('holder'));
    await holder.releaseLease({
      cluster: mine.cluster,
      name: mine.name,
      owner: mine.owner,
      token: mine.token,
    });
    expect((await taker.acquireLease({ ...lease('taker'), cluster: mine.cluster })).owner).toBe('taker');
  });

  it('the deployed bound leaves room for real clocks and is far below every lease TTL', () => {
    expect(LEASE_CLOCK_SKEW_MS).toBeGreaterThanOrEqual(100);
    expect(LEASE_CLOCK_SKEW_MS).toBeLessThanOrEqual(5_000);
  });
});
