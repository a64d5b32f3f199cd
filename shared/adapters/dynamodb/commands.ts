// Disruption commands on DynamoDB: admitted under the admission lock's fence (which also allocates the
// sequence number), indexed by status (GSI) and by candidate name (pointer items), transitions conditional.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../ports/clock.ts';
import {
  COMMAND_TRANSITIONS,
  OPEN_COMMAND_STATUSES,
  endsCommand,
} from '../../ports/state-store/command-states.ts';
import { ConditionFailedError, StaleWriteError } from '../../ports/state-store/errors.ts';
import { admittedCommand } from '../../ports/state-store/records.ts';
import type {
  CommandFailure,
  CommandInput,
  CommandRecord,
  Fence,
  ReplacementIdentity,
} from '../../ports/state-store/records.ts';
import type { CommandStatus } from '../../ports/state-store/command-states.ts';
import { toCommand, toLeaseView } from './items.ts';
import {
  GSI1,
  candidateKey,
  candidatePk,
  cleanupTtl,
  commandKey,
  leaseKey,
  statusPartition,
  statusSort,
} from './keys.ts';
import type { Leases } from './leases.ts';
import type { Table } from './table.ts';
import type { Plain } from './codec.ts';

/*
 * Admission timeline (one admitter at a time holds the lock; fenced writes in brackets):
 *
 *   acquire lock (token t) ── [lock item: seq += 1, lastCommandId = id | HELD_BY_ME ∧ NEW_COMMAND] ──┐
 *                          ── candidate pointers (idempotent puts, alongside) ─────────────────────────┴─
 *   [command item | NOT_EXISTS] ── taint, launch … (the caller)
 *
 *   The sequence number is allocated by the same conditional write that checks the token, so a stale holder
 *   gets no number and writes nothing; a retry after a lost response finds lastCommandId = id in ALL_OLD and
 *   reuses that number instead of taking a second one. A crash between the two writes leaves a gap in seq,
 *   never a duplicate; the command was not started (the caller acts only after admitCommand returns).
 */
/*
 * With transactions (DynamoDB, DynamoDB Local; the default), the fence and the command item are ONE write:
 *
 *   read lock item (seq = s) ── TransactWriteItems [ lock: seq = s + 1 | HELD_BY_ME ∧ SEQ_IS(s) ]
 *                                                  [ command item     | NOT_EXISTS            ] ── taint, launch …
 *
 *   Every attempt, a late retry included, is judged when it applies: once a newer holder has acquired (token
 *   t + 1) no attempt of holder t can land, however long the client retried or however skewed its clock.
 *   A retry whose first attempt applied finds its own command (same id, token, owner) and returns it.
 *   Without transactions (dynalite) the two-write timeline above applies, with its documented window.
 *
 * Confirmation (the command's last admission step, "mark for deletion"), fenced the same way:
 *   TransactWriteItems [ lock | HELD_BY_ME ] [ command: confirmedAt = now, replacementIdentities
 *                                                     | STATUS_IS(launching) ∧ ADMITTED_BY_ME ]
 *   Orchestration drains only confirmed commands, so a stale admitter's half-started command is rolled back.
 */
export const COMMAND_CONDITIONS = {
  NEW_COMMAND: '(attribute_not_exists(#lastCommandId) OR #lastCommandId <> :commandId)',
  /** The sequence the holder read is still the lock's (0: none allocated yet). */
  SEQ_IS: (prev: number): string => (prev === 0 ? 'attribute_not_exists(#seq)' : '#seq = :prev'),
  NOT_EXISTS: 'attribute_not_exists(#pk)',
  STATUS_IS: '#status = :from',
  ADMITTED_BY_ME: '#fencingToken = :token AND #admittedBy = :owner',
} as const;

export type FencingMode = 'transaction' | 'two-writes';

/** Terminal commands are kept for a week for the census and post-mortems, then DynamoDB's TTL removes them. */
const TERMINAL_RETENTION_MS = 7 * 24 * 3_600_000;

export class Commands {
  constructor(
    private readonly table: Table,
    private readonly leases: Leases,
    private readonly clock: Clock,
    private readonly clearNegativeCache: (cluster: string) => Promise<number>,
    private readonly fencing: FencingMode = 'transaction',
  ) {}

  /** `fence` and `c` are checked by the caller (recordInputs.admitCommand). */
  async admit(fence: Fence, c: CommandInput): Promise<CommandRecord> {
    await this.writePointers(fence, c);
    // An admitted command clears the negative cache (endsCommand's note); first, as transition does: a refused
    // or crashed admission over-clears, which only costs a re-simulation.
    await this.clearNegativeCache(fence.cluster);
    return this.fencing === 'transaction'
      ? this.admitInTransaction(fence, c)
      : this.admitInTwoWrites(fence, c);
  }

  /** Pointers first: a pointer without its command is ignored by readers, a command without pointers could not be found. */
  private async writePointers(fence: Fence, c: CommandInput): Promise<void> {
    const now = this.clock.now();
    await this.table.batchWrite(
      c.candidates.map((name) => ({
        ...candidateKey(fence.cluster, name, c.id),
        commandId: c.id,
        ttl: cleanupTtl(now.getTime() + 30 * 86_400_000),
      })),
    );
  }

  private itemOf(record: CommandRecord): Record<string, Plain | undefined> {
    const { createdAt, updatedAt, confirmedAt, retryAt, ...rest } = record;
    return {
      ...rest,
      createdAt: createdAt.getTime(),
      updatedAt: updatedAt.getTime(),
      confirmedAt: confirmedAt?.getTime(),
      retryAt: retryAt?.getTime(),
      gsi1pk: statusPartition(record.cluster, record.status),
      gsi1sk: statusSort(record.status, record.id),
    };
  }

  private async admitInTransaction(fence: Fence, c: CommandInput): Promise<CommandRecord> {
    const lockItem = await this.table.get(leaseKey(fence.cluster, fence.name));
    const prev = Number(lockItem?.seq ?? 0);
    const now = this.clock.now();
    const record = admittedCommand(fence, c, prev + 1, now);
    const out = await this.table.transact([
      this.leases.fencePart(fence, {
        update: '#seq = :seq, #lastCommandId = :commandId',
        condition: COMMAND_CONDITIONS.SEQ_IS(prev),
        values: { ':seq': prev + 1, ':prev': prev, ':commandId': c.id },
      }),
      {
        kind: 'put',
        key: commandKey(fence.cluster, c.id),
        fields: this.itemOf(record),
        expr: { condition: COMMAND_CONDITIONS.NOT_EXISTS, names: { '#pk': 'pk' }, values: {} },
      },
    ]);
    if (out.ok) return record;
    const existing = await this.get(fence.cluster, c.id);
    // Our own earlier attempt applied (its answer was lost): the same command, same holder.
    if (existing && existing.fencingToken === fence.token && existing.admittedBy === fence.owner)
      return existing;
    await this.leases.staleUnlessHeld(fence);
    if (existing)
      throw new ConditionFailedError(`command ${fence.cluster}/${c.id} already exists`, existing, {
        cause: out.cause,
      });
    throw new ConditionFailedError(
      `command ${fence.cluster}/${c.id}: the admission sequence moved under the holder (${out.reasons.join(', ')})`,
      undefined,
      { cause: out.cause },
    );
  }

  /** dynalite has no transactions: the fence and the item are two writes (README: the window this leaves). */
  private async admitInTwoWrites(fence: Fence, c: CommandInput): Promise<CommandRecord> {
    const now = this.clock.now();
    const lock = await this.leases.fence(fence, {
      update: '#seq = if_not_exists(#seq, :zero) + :one, #lastCommandId = :commandId',
      condition: COMMAND_CONDITIONS.NEW_COMMAND,
      values: { ':zero': 0, ':one': 1, ':commandId': c.id },
      isOwnRetry: (old) => old.lastCommandId === c.id,
    });
    const seq = Number(lock.seq);
    // The lease may have run out while we waited for the fence: a late command would land behind newer ones.
    if (this.clock.now().getTime() >= Number(lock.expiresAt))
      throw new StaleWriteError(fence, toLeaseView(lock));
    const record = admittedCommand(fence, c, seq, now);
    const out = await this.table.putIfAbsent(commandKey(fence.cluster, c.id), this.itemOf(record));
    if (out.ok) return record;
    const existing = out.old ? toCommand(out.old) : undefined;
    if (existing && existing.seq === seq && existing.fencingToken === fence.token) return existing;
    throw new ConditionFailedError(`command ${fence.cluster}/${c.id} already exists`, existing, {
      cause: out.cause,
    });
  }

  /** The fenced confirmation: the admitter finished starting the command while it still held the lock. */
  async confirm(
    fence: Fence,
    id: string,
    replacements: readonly ReplacementIdentity[],
  ): Promise<CommandRecord> {
    const now = this.clock.now().getTime();
    const ids = replacements.map((r) => ({ claim: r.claim, claimUid: r.claimUid }));
    const expr = {
      update: `SET #confirmedAt = :now, #updatedAt = :now${ids.length > 0 ? ', #replacementIdentities = :ids' : ''}`,
      condition: `${COMMAND_CONDITIONS.STATUS_IS} AND ${COMMAND_CONDITIONS.ADMITTED_BY_ME}`,
      names: {
        '#confirmedAt': 'confirmedAt',
        '#updatedAt': 'updatedAt',
        '#status': 'status',
        '#fencingToken': 'fencingToken',
        '#admittedBy': 'admittedBy',
        ...(ids.length > 0 ? { '#replacementIdentities': 'replacementIdentities' } : {}),
      },
      values: {
        ':now': now,
        ':from': 'launching',
        ':token': fence.token,
        ':owner': fence.owner,
        ...(ids.length > 0 ? { ':ids': ids } : {}),
      },
    };
    const key = commandKey(fence.cluster, id);
    if (this.fencing === 'transaction') {
      const out = await this.table.transact([this.leases.fencePart(fence), { kind: 'update', key, expr }]);
      if (!out.ok) return this.confirmRefused(fence, id, out.cause);
    } else {
      await this.leases.fence(fence);
      const out = await this.table.update(key, expr);
      if (!out.ok) return this.confirmRefused(fence, id, out.cause);
    }
    const confirmed = await this.get(fence.cluster, id);
    if (!confirmed) throw new ConditionFailedError(`command ${fence.cluster}/${id} vanished`, undefined);
    return confirmed;
  }

  private async confirmRefused(fence: Fence, id: string, cause: unknown): Promise<CommandRecord> {
    const current = await this.get(fence.cluster, id);
    // A retry whose first attempt applied: already confirmed by this holder.
    if (current?.confirmedAt && current.fencingToken === fence.token && current.admittedBy === fence.owner)
      return current;
    await this.leases.staleUnlessHeld(fence);
    throw new ConditionFailedError(
      `command ${fence.cluster}/${id} cannot be confirmed by ${fence.owner} (it is ${current?.status ?? 'absent'})`,
      current,
      { cause },
    );
  }

  async get(cluster: string, id: string): Promise<CommandRecord | undefined> {
    const item = await this.table.get(commandKey(cluster, id));
    return item ? toCommand(item) : undefined;
  }

  /**
   * Resolved from the command's own bookkeeping, so a deleted candidate cannot wedge its command
   * (docs/architecture.md, "One consolidation pass", step 8).
   */
  async byCandidate(cluster: string, candidate: string): Promise<CommandRecord[]> {
    const pointers = await this.table.query(
      { attr: 'pk', value: candidatePk(cluster) },
      { skPrefix: `${candidate}#` },
    );
    const ids = [...new Set(pointers.map((p) => String(p.commandId)))];
    const items = await this.table.batchGet(ids.map((id) => commandKey(cluster, id)));
    // A pointer whose command was never written (admission crashed in between) is ignored.
    return items
      .map(toCommand)
      .filter((c) => c.candidates.includes(candidate))
      .sort((a, b) => a.seq - b.seq);
  }

  async byStatus(cluster: string, status: CommandStatus): Promise<CommandRecord[]> {
    const open = OPEN_COMMAND_STATUSES.includes(status);
    const items = await this.table.query(
      { attr: 'gsi1pk', value: statusPartition(cluster, status) },
      { index: GSI1, skAttr: 'gsi1sk', ...(open ? { skPrefix: `${status}#` } : {}) },
    );
    return items.map(toCommand).sort((a, b) => a.seq - b.seq);
  }

  /** Every open command of the cluster: one index partition, so one paginated Query. */
  async open(cluster: string): Promise<CommandRecord[]> {
    const items = await this.table.query(
      { attr: 'gsi1pk', value: statusPartition(cluster, 'launching') },
      { index: GSI1, skAttr: 'gsi1sk' },
    );
    return items.map(toCommand).sort((a, b) => a.seq - b.seq);
  }

  async transition(
    cluster: string,
    id: string,
    from: CommandStatus,
    to: CommandStatus,
  ): Promise<CommandRecord> {
    // Clear first: a crash after the clear and before the transition over-clears, which is harmless.
    if (endsCommand(to)) await this.clearNegativeCache(cluster);
    const now = this.clock.now().getTime();
    const nonce = randomUUID();
    const terminal = COMMAND_TRANSITIONS[to].length === 0;
    const out = await this.table.update(commandKey(cluster, id), {
      // A new status is a new step: the failed attempts of the last one are forgotten.
      update: `SET #status = :to, #updatedAt = :now, #gsi1pk = :gpk, #gsi1sk = :gsk, #lastTransitionId = :nonce${terminal ? ', #ttl = :ttl' : ''} REMOVE #failures, #lastError, #retryAt`,
      condition: COMMAND_CONDITIONS.STATUS_IS,
      names: {
        ...FAILURE_NAMES,
        '#status': 'status',
        '#updatedAt': 'updatedAt',
        '#gsi1pk': 'gsi1pk',
        '#gsi1sk': 'gsi1sk',
        '#lastTransitionId': 'lastTransitionId',
        '#ttl': 'ttl',
      },
      values: {
        ':to': to,
        ':from': from,
        ':now': now,
        ':gpk': statusPartition(cluster, to),
        ':gsk': statusSort(to, id),
        ':nonce': nonce,
        ':ttl': cleanupTtl(now + TERMINAL_RETENTION_MS),
      },
    });
    if (out.ok) return toCommand(out.item);
    if (out.old && out.old.lastTransitionId === nonce) return toCommand(out.old);
    throw new ConditionFailedError(
      `command ${cluster}/${id} is ${out.old ? String(out.old.status) : 'absent'}, not ${from}`,
      out.old ? toCommand(out.old) : undefined,
      { cause: out.cause },
    );
  }

  /**
   * One more failed attempt (ADD, so two writers never lose a count), or the count forgotten; conditional on
   * the status, so a command that moved meanwhile is left as its mover left it. Not idempotent: a retried
   * write after a lost answer may count one attempt twice, which only brings the bound nearer.
   */
  async recordFailure(
    cluster: string,
    id: string,
    from: CommandStatus,
    failure: CommandFailure | undefined,
  ): Promise<CommandRecord> {
    const out = await this.table.update(commandKey(cluster, id), {
      update: failure
        ? 'SET #lastError = :error, #retryAt = :retryAt ADD #failures :one'
        : 'REMOVE #failures, #lastError, #retryAt',
      condition: `attribute_exists(#pk) AND ${COMMAND_CONDITIONS.STATUS_IS}`,
      names: { ...FAILURE_NAMES, '#pk': 'pk', '#status': 'status' },
      values: {
        ':from': from,
        ...(failure ? { ':error': failure.error, ':retryAt': failure.retryAt.getTime(), ':one': 1 } : {}),
      },
    });
    if (out.ok) return toCommand(out.item);
    throw new ConditionFailedError(
      `command ${cluster}/${id} is ${out.old ? String(out.old.status) : 'absent'}, not ${from}`,
      out.old ? toCommand(out.old) : undefined,
      { cause: out.cause },
    );
  }
}

const FAILURE_NAMES = { '#failures': 'failures', '#lastError': 'lastError', '#retryAt': 'retryAt' };
