// Pass state on DynamoDB: one partition per cluster holding the epoch, coverage cycles, unseen pools, negative cache,
// verdicts, nominations and unavailable offerings, so a pass reads all of it with one paginated Query.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Clock } from '../../ports/clock.ts';
import { ConditionFailedError, parseInput } from '../../ports/state-store/errors.ts';
import { passStateInputs } from '../../ports/state-store/pass-state-inputs.ts';
import { storeName } from '../../ports/state-store/records.ts';
import type {
  CommandRecord,
  CoverageCycle,
  Nomination,
  PassState,
  PodVerdict,
  StoredNegativeEntry,
  UnavailableOfferingRecord,
  UnseenPools,
} from '../../ports/state-store/records.ts';
import { NO_UNSEEN_POOLS } from '../../ports/state-store/records.ts';
import type { NegativeEntry } from '../../disruption/negative-cache.ts';
import type { ConsolidatedView } from '../../disruption/consolidated-state.ts';
import {
  consolidatedItem,
  cycleItem,
  epochItem,
  memberItem,
  negativeItem,
  nominationItem,
  parseItem,
  unavailableItem,
  unseenItem,
  verdictItem,
} from './items.ts';
import {
  PASS_SK,
  cleanupTtl,
  consolidatedKey,
  cycleKey,
  epochKey,
  memberKey,
  negativeKey,
  nominationKey,
  passPk,
  unavailableKey,
  unseenKey,
  verdictKey,
} from './keys.ts';
import type { Table } from './table.ts';

/*
 * Epoch timeline (negative cache; the coverage cycle works the same way with its cycle number):
 *
 *   pass reads epoch 5 ──── simulates ──── writes entries stamped 5 ──────────── next pass: entries == 5 → live
 *                  command completes: [EPOCH item: epoch = 6 | NOT_SAME_CLEAR] ─ next pass: entries 5 ≠ 6 → ignored
 *
 *   Clearing is one write however large the cache. An entry written late under an old epoch stays invisible,
 *   so a clear that races a pass always wins. Expiry is the reader's clock against expiresAt; the `ttl`
 *   attribute only lets DynamoDB delete the leftovers (hours late, which is why readers never rely on it).
 */
export const PASS_CONDITIONS = {
  NOT_SAME_CLEAR: '(attribute_not_exists(#lastClearId) OR #lastClearId <> :nonce)',
  CYCLE_IS: '#cycle = :expected',
  UNSEEN_VERSION_IS: '#version = :expected',
  NO_CYCLE_YET: 'attribute_not_exists(#pk)',
  NO_UNSEEN_YET: 'attribute_not_exists(#pk)',
} as const;

/** A coverage member untouched for a week belongs to a node long gone (cycles take minutes to hours). */
const MEMBER_RETENTION_MS = 7 * 24 * 3_600_000;

export class PassStateStore {
  constructor(
    private readonly table: Table,
    private readonly clock: Clock,
  ) {}

  /** One Query over the pass partition (all pages) alongside the open-commands Query: two round trips at any size below 1 MB. */
  async load(cluster: string, openCommands: Promise<CommandRecord[]>): Promise<PassState> {
    parseInput(storeName, cluster, 'loadPassState.cluster');
    const [items, commands] = await Promise.all([
      this.table.query({ attr: 'pk', value: passPk(cluster) }),
      openCommands,
    ]);
    const now = this.clock.now().getTime();
    const live = (expiresAt: Date): boolean => expiresAt.getTime() > now;
    let epoch = 0;
    let consolidated: PassState['consolidated'];
    let unseenPools: UnseenPools = NO_UNSEEN_POOLS;
    const cycles = new Map<string, number>();
    const members: z.output<typeof memberItem>[] = [];
    const negatives: z.output<typeof negativeItem>[] = [];
    const verdicts = new Map<string, PodVerdict>();
    const nominations = new Map<string, Nomination>();
    const unavailable: UnavailableOfferingRecord[] = [];
    for (const item of items) {
      const sk = String(item.sk);
      if (sk === PASS_SK.epoch) epoch = parseItem(epochItem, item).epoch;
      else if (sk === PASS_SK.consolidated) consolidated = parseItem(consolidatedItem, item);
      else if (sk === PASS_SK.unseen) {
        const u = parseItem(unseenItem, item);
        unseenPools = { version: u.version, pools: u.pools };
      } else if (sk.startsWith(PASS_SK.cycle)) {
        const c = parseItem(cycleItem, item);
        cycles.set(c.nodePool, c.cycle);
      } else if (sk.startsWith(PASS_SK.member)) members.push(parseItem(memberItem, item));
      else if (sk.startsWith(PASS_SK.negative)) negatives.push(parseItem(negativeItem, item));
      else if (sk.startsWith(PASS_SK.verdict)) {
        const v = parseItem(verdictItem, item);
        if (live(v.expiresAt)) verdicts.set(v.podKey, v);
      } else if (sk.startsWith(PASS_SK.nomination)) {
        const n = parseItem(nominationItem, item);
        if (live(n.expiresAt)) nominations.set(n.podKey, n);
      } else if (sk.startsWith(PASS_SK.unavailable)) {
        const u = parseItem(unavailableItem, item);
        if (live(u.expiresAt)) unavailable.push(u);
      }
    }
    const negativeCache = new Map<string, NegativeEntry>();
    const negativeLeftovers = new Map<string, StoredNegativeEntry>();
    for (const n of negatives) {
      const entry = { candidate: n.candidate, fingerprint: n.fingerprint, expiresAt: n.expiresAt };
      if (n.epoch === epoch && live(n.expiresAt)) negativeCache.set(n.candidate, entry);
      else negativeLeftovers.set(n.candidate, { ...entry, epoch: n.epoch });
    }
    const evaluated = new Map<string, Set<string>>();
    for (const m of members)
      if (cycles.get(m.nodePool) === m.cycle)
        evaluated.set(m.nodePool, (evaluated.get(m.nodePool) ?? new Set()).add(m.candidate));
    const coverage = new Map<string, CoverageCycle>();
    for (const [nodePool, cycle] of cycles)
      coverage.set(nodePool, { nodePool, cycle, evaluated: evaluated.get(nodePool) ?? new Set() });
    return {
      epoch,
      coverage,
      unseenPools,
      negativeCache,
      negativeLeftovers,
      ...(consolidated ? { consolidated } : {}),
      verdicts,
      nominations,
      unavailableOfferings: unavailable,
      openCommands: commands,
    };
  }

  async startCycle(cluster: string, nodePool: string, expected: number): Promise<number> {
    passStateInputs.startCoverageCycle(nodePool, expected);
    const nonce = randomUUID();
    const out = await this.table.update(cycleKey(cluster, nodePool), {
      update: 'SET #nodePool = :pool, #cycle = :next, #lastStartId = :nonce',
      condition: expected === 0 ? PASS_CONDITIONS.NO_CYCLE_YET : PASS_CONDITIONS.CYCLE_IS,
      names: { '#pk': 'pk', '#nodePool': 'nodePool', '#cycle': 'cycle', '#lastStartId': 'lastStartId' },
      values: { ':pool': nodePool, ':next': expected + 1, ':expected': expected, ':nonce': nonce },
    });
    if (out.ok || out.old?.lastStartId === nonce) return expected + 1;
    const current = out.old ? parseItem(cycleItem, out.old).cycle : 0;
    throw new ConditionFailedError(
      `coverage cycle of ${cluster}/${nodePool} is ${current}, not ${expected}`,
      current,
      { cause: out.cause },
    );
  }

  /** One conditional write of the whole (small) set; the nonce recognises a retry of a write that applied. */
  async putUnseenPools(cluster: string, expected: number, pools: readonly string[]): Promise<number> {
    const parsed = passStateInputs.putUnseenPools(expected, pools);
    const nonce = randomUUID();
    const out = await this.table.update(unseenKey(cluster), {
      update: 'SET #version = :next, #pools = :pools, #lastWriteId = :nonce',
      condition: expected === 0 ? PASS_CONDITIONS.NO_UNSEEN_YET : PASS_CONDITIONS.UNSEEN_VERSION_IS,
      names: { '#pk': 'pk', '#version': 'version', '#pools': 'pools', '#lastWriteId': 'lastWriteId' },
      values: { ':next': expected + 1, ':pools': parsed, ':expected': expected, ':nonce': nonce },
    });
    if (out.ok || out.old?.lastWriteId === nonce) return expected + 1;
    const current = out.old ? parseItem(unseenItem, out.old).version : 0;
    throw new ConditionFailedError(
      `unseen pools of ${cluster} are at version ${current}, not ${expected}`,
      current,
      { cause: out.cause },
    );
  }

  async markEvaluated(
    cluster: string,
    nodePool: string,
    cycle: number,
    candidates: readonly string[],
  ): Promise<void> {
    passStateInputs.markEvaluated(nodePool, cycle, candidates);
    // Members of nodes that left the fleet are never overwritten again: DynamoDB's TTL removes them.
    const ttl = cleanupTtl(this.clock.now().getTime() + MEMBER_RETENTION_MS);
    await this.table.batchWrite(
      candidates.map((candidate) => ({
        ...memberKey(cluster, nodePool, candidate),
        nodePool,
        candidate,
        cycle,
        ttl,
      })),
    );
  }

  async putNegative(cluster: string, epoch: number, entries: readonly NegativeEntry[]): Promise<void> {
    const parsed = passStateInputs.putNegativeEntries(entries);
    await this.table.batchWrite(
      parsed.map((e) => ({
        ...negativeKey(cluster, e.candidate),
        candidate: e.candidate,
        fingerprint: e.fingerprint,
        epoch,
        expiresAt: e.expiresAt.getTime(),
        ttl: cleanupTtl(e.expiresAt.getTime()),
      })),
    );
  }

  async deleteNegative(cluster: string, candidates: readonly string[]): Promise<void> {
    await this.table.batchWrite(
      [],
      passStateInputs.deleteNegativeEntries(candidates).map((c) => negativeKey(cluster, c)),
    );
  }

  async clearNegative(cluster: string): Promise<number> {
    parseInput(storeName, cluster, 'clearNegativeCache.cluster');
    const nonce = randomUUID();
    const out = await this.table.update(epochKey(cluster), {
      update: 'SET #epoch = if_not_exists(#epoch, :zero) + :one, #lastClearId = :nonce',
      condition: PASS_CONDITIONS.NOT_SAME_CLEAR,
      names: { '#epoch': 'epoch', '#lastClearId': 'lastClearId' },
      values: { ':zero': 0, ':one': 1, ':nonce': nonce },
    });
    // A retry whose first attempt already bumped the epoch must not bump it twice.
    const item = out.ok ? out.item : out.old;
    return parseItem(epochItem, item ?? {}).epoch;
  }

  /** One item, replaced whole or deleted: the last writer wins, and either answer is safe to act on. */
  async putConsolidated(cluster: string, view: ConsolidatedView | undefined): Promise<void> {
    const parsed = passStateInputs.putConsolidatedView(view);
    if (!parsed) return this.table.batchWrite([], [consolidatedKey(cluster)]);
    await this.table.batchWrite([
      {
        ...consolidatedKey(cluster),
        fingerprint: parsed.fingerprint,
        since: parsed.since.getTime(),
        methods: [...parsed.methods],
      },
    ]);
  }

  async putVerdicts(cluster: string, verdicts: readonly PodVerdict[]): Promise<void> {
    const parsed = passStateInputs.putVerdicts(verdicts);
    await this.table.batchWrite(
      parsed.map((v) => ({
        ...verdictKey(cluster, v.podKey),
        ...v,
        expiresAt: v.expiresAt.getTime(),
        ttl: cleanupTtl(v.expiresAt.getTime()),
      })),
    );
  }

  async putNominations(cluster: string, nominations: readonly Nomination[]): Promise<void> {
    const parsed = passStateInputs.putNominations(nominations);
    await this.table.batchWrite(
      parsed.map((n) => ({
        ...nominationKey(cluster, n.podKey),
        ...n,
        expiresAt: n.expiresAt.getTime(),
        ttl: cleanupTtl(n.expiresAt.getTime()),
      })),
    );
  }

  async deleteNominations(cluster: string, podKeys: readonly string[]): Promise<void> {
    await this.table.batchWrite(
      [],
      passStateInputs.deleteNominations(podKeys).map((k) => nominationKey(cluster, k)),
    );
  }

  async putUnavailable(cluster: string, offerings: readonly UnavailableOfferingRecord[]): Promise<void> {
    const parsed = passStateInputs.putUnavailableOfferings(offerings);
    await this.table.batchWrite(
      parsed.map((o) => ({
        ...unavailableKey(cluster, o),
        ...o,
        expiresAt: o.expiresAt.getTime(),
        ttl: cleanupTtl(o.expiresAt.getTime()),
      })),
    );
  }
}
