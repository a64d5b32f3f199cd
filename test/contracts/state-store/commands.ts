// Contract cases for disruption commands: admission under the lock's fence, the sequence, lookups by
// candidate and status, and conditional transitions (the queue of docs/architecture.md).
import { describe, expect, it } from 'vitest';
import {
  ConditionFailedError,
  InvalidStateInputError,
  StaleWriteError,
} from '../../../shared/ports/state-store/errors.ts';
import type { CommandInput } from '../../../shared/ports/state-store/records.ts';
import type { ContractContext } from './contract.ts';

export const command = (id: string, candidates: string[], replacements: string[] = []): CommandInput => ({
  id,
  method: replacements.length > 0 ? 'single-node-consolidation' : 'emptiness',
  decision: replacements.length > 0 ? 'replace' : 'delete',
  candidates,
  replacements,
});

export function commandContract(ctx: ContractContext): void {
  const lock = (owner = 'admit-1', ttlMs = 30_000) =>
    ctx.store.acquireLease({ cluster: ctx.cluster, name: 'admission', owner, ttlMs });

  describe('disruption commands', () => {
    it('admits commands under the lock as one increasing sequence stamped with the fencing token', async () => {
      const l = await lock();
      const a = await ctx.store.admitCommand(l, command('cmd-a', ['node-1']));
      const b = await ctx.store.admitCommand(l, command('cmd-b', ['node-2', 'node-3'], ['claim-x']));
      expect([a.seq, b.seq]).toEqual([1, 2]);
      expect(b).toMatchObject({
        status: 'launching',
        fencingToken: l.token,
        admittedBy: 'admit-1',
        decision: 'replace',
        replacements: ['claim-x'],
      });
      expect(await ctx.other.getCommand(ctx.cluster, 'cmd-b')).toEqual(b);
      expect(await ctx.other.getCommand(ctx.cluster, 'cmd-none')).toBeUndefined();
    });

    it('continues the sequence under the next holder', async () => {
      const first = await lock('admit-1', 1_000);
      await ctx.store.admitCommand(first, command('cmd-1', ['n1']));
      ctx.clock.advance(1_000);
      const second = await ctx.other.acquireLease({
        cluster: ctx.cluster,
        name: 'admission',
        owner: 'admit-2',
        ttlMs: 1_000,
      });
      const c = await ctx.other.admitCommand(second, command('cmd-2', ['n2']));
      expect(c.seq).toBe(2);
      expect(c.fencingToken).toBe(second.token);
    });

    it('refuses a command from a holder whose lease was taken over, carrying the winning lock', async () => {
      const old = await lock('admit-old', 1_000);
      ctx.clock.advance(1_001);
      const current = await ctx.other.acquireLease({
        cluster: ctx.cluster,
        name: 'admission',
        owner: 'admit-new',
        ttlMs: 1_000,
      });
      const err = await ctx.store.admitCommand(old, command('late', ['n1'])).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StaleWriteError);
      expect((err as StaleWriteError).current).toMatchObject({ owner: 'admit-new', token: current.token });
      expect(await ctx.store.getCommand(ctx.cluster, 'late')).toBeUndefined();
      expect(await ctx.store.findCommandsByCandidate(ctx.cluster, 'n1')).toEqual([]);
    });

    it('refuses a command from a holder whose lease expired, even before anyone took over', async () => {
      const l = await lock('admit-1', 1_000);
      ctx.clock.advance(1_000);
      await expect(ctx.store.admitCommand(l, command('late', ['n1']))).rejects.toBeInstanceOf(
        StaleWriteError,
      );
    });

    it('confirms a command for the holder that admitted it, once, and refuses a stale one', async () => {
      const l = await lock('admit-1', 1_000);
      await ctx.store.admitCommand(l, command('cmd-c', ['n1']));
      ctx.clock.advance(10);
      const confirmed = await ctx.store.confirmCommand(l, 'cmd-c');
      expect(confirmed.confirmedAt).toEqual(ctx.clock.now());
      expect(await ctx.other.getCommand(ctx.cluster, 'cmd-c')).toEqual(confirmed);
      expect(await ctx.store.confirmCommand(l, 'cmd-c')).toEqual(confirmed);
      await ctx.store.admitCommand(l, command('cmd-d', ['n2']));
      ctx.clock.advance(1_000);
      await expect(ctx.store.confirmCommand(l, 'cmd-d')).rejects.toBeInstanceOf(StaleWriteError);
      expect((await ctx.store.getCommand(ctx.cluster, 'cmd-d'))?.confirmedAt).toBeUndefined();
    });

    it('accepts commands only under the admission lock', async () => {
      const pass = await ctx.store.acquireLease({
        cluster: ctx.cluster,
        name: 'consolidation',
        owner: 'p',
        ttlMs: 1_000,
      });
      await expect(ctx.store.admitCommand(pass, command('x', ['n1']))).rejects.toBeInstanceOf(
        InvalidStateInputError,
      );
      const l = await lock();
      await expect(ctx.store.admitCommand({ ...l, token: 0 }, command('z', ['n1']))).rejects.toThrow(
        /admitCommand\.fence\.token/,
      );
      await expect(ctx.store.admitCommand(l, command('y', []))).rejects.toThrow(
        /admitCommand\.command\.candidates/,
      );
    });

    it('names the method and field of a bad command id, candidate or launch claim, on every adapter', async () => {
      const bad = 'bad#name';
      const calls: [string, () => Promise<unknown>][] = [
        ['getCommand.id', () => ctx.store.getCommand(ctx.cluster, bad)],
        ['findCommandsByCandidate.candidate', () => ctx.store.findCommandsByCandidate(ctx.cluster, bad)],
        [
          'transitionCommand.id',
          () => ctx.store.transitionCommand(ctx.cluster, bad, 'launching', 'draining'),
        ],
        ['getLaunch.claimName', () => ctx.store.getLaunch(ctx.cluster, bad)],
        [
          'completeLaunch.claimName',
          () => ctx.store.completeLaunch(ctx.cluster, bad, { status: 'failed', error: 'x' }),
        ],
      ];
      for (const [where, call] of calls) {
        const err = await call().catch((e: unknown) => e);
        expect(err, where).toBeInstanceOf(InvalidStateInputError);
        expect(String(err), where).toContain(where);
      }
    });

    it('resolves commands by candidate name, also for a candidate named by several', async () => {
      const l = await lock();
      await ctx.store.admitCommand(l, command('cmd-1', ['node-a', 'node-b']));
      await ctx.store.admitCommand(l, command('cmd-2', ['node-b']));
      await ctx.store.admitCommand(l, command('cmd-3', ['node-bb']));
      expect((await ctx.other.findCommandsByCandidate(ctx.cluster, 'node-b')).map((c) => c.id)).toEqual([
        'cmd-1',
        'cmd-2',
      ]);
      expect((await ctx.other.findCommandsByCandidate(ctx.cluster, 'node-a')).map((c) => c.id)).toEqual([
        'cmd-1',
      ]);
      expect(await ctx.other.findCommandsByCandidate(ctx.cluster, 'node-z')).toEqual([]);
    });

    it('moves commands through their states conditionally and lists them by status', async () => {
      const l = await lock();
      await ctx.store.admitCommand(l, command('c1', ['n1']));
      await ctx.store.admitCommand(l, command('c2', ['n2']));
      const draining = await ctx.store.transitionCommand(ctx.cluster, 'c1', 'launching', 'draining');
      expect(draining.status).toBe('draining');
      const err = await ctx.other
        .transitionCommand(ctx.cluster, 'c1', 'launching', 'rolling-back')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConditionFailedError);
      expect((err as ConditionFailedError<{ status: string }>).current?.status).toBe('draining');
      await expect(
        ctx.store.transitionCommand(ctx.cluster, 'c2', 'launching', 'completed'),
      ).rejects.toBeInstanceOf(InvalidStateInputError);
      await expect(
        ctx.store.transitionCommand(ctx.cluster, 'absent', 'launching', 'draining'),
      ).rejects.toBeInstanceOf(ConditionFailedError);
      expect((await ctx.other.listCommandsByStatus(ctx.cluster, 'launching')).map((c) => c.id)).toEqual([
        'c2',
      ]);
      expect((await ctx.other.listCommandsByStatus(ctx.cluster, 'draining')).map((c) => c.id)).toEqual([
        'c1',
      ]);
      await ctx.store.transitionCommand(ctx.cluster, 'c1', 'draining', 'completed');
      await ctx.store.transitionCommand(ctx.cluster, 'c2', 'launching', 'rolling-back');
      await ctx.store.transitionCommand(ctx.cluster, 'c2', 'rolling-back', 'rolled-back');
      expect((await ctx.other.listCommandsByStatus(ctx.cluster, 'completed')).map((c) => c.id)).toEqual([
        'c1',
      ]);
      expect((await ctx.other.listCommandsByStatus(ctx.cluster, 'rolled-back')).map((c) => c.id)).toEqual([
        'c2',
      ]);
      expect(await ctx.other.listCommandsByStatus(ctx.cluster, 'draining')).toEqual([]);
    });

    it('loads only open commands into the pass state, in admission order', async () => {
      const l = await lock();
      for (const id of ['o1', 'o2', 'o3', 'o4']) await ctx.store.admitCommand(l, command(id, [`n-${id}`]));
      await ctx.store.transitionCommand(ctx.cluster, 'o2', 'launching', 'draining');
      await ctx.store.transitionCommand(ctx.cluster, 'o3', 'launching', 'rolling-back');
      await ctx.store.transitionCommand(ctx.cluster, 'o3', 'rolling-back', 'rolled-back');
      const state = await ctx.other.loadPassState(ctx.cluster);
      expect(state.openCommands.map((c) => [c.id, c.status])).toEqual([
        ['o1', 'launching'],
        ['o2', 'draining'],
        ['o4', 'launching'],
      ]);
    });

    it('keeps what a command chose: its candidates’ identities, and its replacements’ uids from the confirmation', async () => {
      const l = await lock();
      const identities = [
        {
          node: 'ip-10-0-0-1',
          nodeUid: 'uid-n1',
          claim: 'pool-abc',
          claimUid: 'uid-c1',
          providerId: 'aws:///us-east-1a/i-1',
        },
        { node: 'ip-10-0-0-2', nodeUid: 'uid-n2' },
      ];
      const admitted = await ctx.store.admitCommand(l, {
        ...command('cmd-id', ['ip-10-0-0-1', 'ip-10-0-0-2'], ['pool-x-0']),
        identities,
      });
      expect(admitted.identities).toEqual(identities);
      const confirmed = await ctx.store.confirmCommand(l, 'cmd-id', [
        { claim: 'pool-x-0', claimUid: 'uid-r' },
      ]);
      expect(confirmed.replacementIdentities).toEqual([{ claim: 'pool-x-0', claimUid: 'uid-r' }]);
      expect(await ctx.other.getCommand(ctx.cluster, 'cmd-id')).toEqual(confirmed);
      // A record without identities (written before they were recorded) still reads.
      await ctx.store.admitCommand(l, command('cmd-old', ['n9']));
      expect((await ctx.other.getCommand(ctx.cluster, 'cmd-old'))?.identities).toBeUndefined();
      await expect(
        ctx.store.admitCommand(l, { ...command('cmd-bad', ['a', 'b']), identities: [identities[0]!] }),
      ).rejects.toThrow(/admitCommand\.command\.identities/);
    });

    it('counts a command’s failed attempts under its status, forgets them on success or transition, and ends it failed', async () => {
      const l = await lock();
      await ctx.store.admitCommand(l, command('f1', ['n1']));
      const retryAt = new Date(ctx.clock.now().getTime() + 60_000);
      await ctx.store.recordCommandFailure(ctx.cluster, 'f1', 'launching', { error: 'boom', retryAt });
      const twice = await ctx.other.recordCommandFailure(ctx.cluster, 'f1', 'launching', {
        error: 'again',
        retryAt,
      });
      expect(twice).toMatchObject({ failures: 2, lastError: 'again', retryAt, status: 'launching' });
      expect(await ctx.other.getCommand(ctx.cluster, 'f1')).toEqual(twice);
      const cleared = await ctx.store.recordCommandFailure(ctx.cluster, 'f1', 'launching', undefined);
      expect([cleared.failures, cleared.lastError, cleared.retryAt]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      await ctx.store.recordCommandFailure(ctx.cluster, 'f1', 'launching', { error: 'x', retryAt });
      const moved = await ctx.store.transitionCommand(ctx.cluster, 'f1', 'launching', 'draining');
      expect(moved.failures).toBeUndefined();
      await expect(
        ctx.store.recordCommandFailure(ctx.cluster, 'f1', 'launching', { error: 'late', retryAt }),
      ).rejects.toBeInstanceOf(ConditionFailedError);
      await ctx.store.transitionCommand(ctx.cluster, 'f1', 'draining', 'failed');
      expect((await ctx.other.listCommandsByStatus(ctx.cluster, 'failed')).map((c) => c.id)).toEqual(['f1']);
      expect((await ctx.other.loadPassState(ctx.cluster)).openCommands).toEqual([]);
      await expect(
        ctx.store.transitionCommand(ctx.cluster, 'f1', 'failed', 'rolled-back'),
      ).rejects.toBeInstanceOf(InvalidStateInputError);
    });

    it('clears the negative cache when a command completes', async () => {
      const l = await lock();
      await ctx.store.admitCommand(l, command('c1', ['n1']));
      const before = await ctx.store.loadPassState(ctx.cluster);
      await ctx.store.putNegativeEntries(ctx.cluster, before.epoch, [
        { candidate: 'n9', fingerprint: 'f', expiresAt: new Date(ctx.clock.now().getTime() + 60_000) },
      ]);
      await ctx.store.transitionCommand(ctx.cluster, 'c1', 'launching', 'draining');
      expect((await ctx.other.loadPassState(ctx.cluster)).negativeCache.size).toBe(1);
      await ctx.store.transitionCommand(ctx.cluster, 'c1', 'draining', 'completed');
      const after = await ctx.other.loadPassState(ctx.cluster);
      expect(after.epoch).toBe(before.epoch + 1);
      expect(after.negativeCache.size).toBe(0);
    });

    // The fork clears its cache whenever a pass admits a command and whenever the queue finishes one, however
    // it ended (docs/mechanisms/negative-cache.md).
    it('clears the negative cache when a command is admitted, and when one fails or is rolled back', async () => {
      const l = await lock();
      const remember = async (epoch: number) =>
        ctx.store.putNegativeEntries(ctx.cluster, epoch, [
          { candidate: 'n9', fingerprint: 'f', expiresAt: new Date(ctx.clock.now().getTime() + 60_000) },
        ]);
      const cached = async () => (await ctx.other.loadPassState(ctx.cluster)).negativeCache.size;
      const epoch = async () => (await ctx.other.loadPassState(ctx.cluster)).epoch;

      await remember(await epoch());
      await ctx.store.admitCommand(l, command('c1', ['n1']));
      expect(await cached()).toBe(0);

      await ctx.store.admitCommand(l, command('c2', ['n2']));
      await remember(await epoch());
      await ctx.store.transitionCommand(ctx.cluster, 'c1', 'launching', 'rolling-back');
      expect(await cached()).toBe(1);
      await ctx.store.transitionCommand(ctx.cluster, 'c1', 'rolling-back', 'rolled-back');
      expect(await cached()).toBe(0);

      await remember(await epoch());
      await ctx.store.transitionCommand(ctx.cluster, 'c2', 'launching', 'failed');
      expect(await cached()).toBe(0);
    });
  });
}
