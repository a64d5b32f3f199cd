// The DynamoDB StateStore: composes leases, pass state, commands, launches and census over one table, and
// exposes the round-trip counter that `bench:state-store` reads. Table layout: README.md in this folder.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { z } from 'zod';
import type { Clock } from '../../ports/clock.ts';
import { CENSUS_RETENTION_MS, censusCurrent, storeName } from '../../ports/state-store/records.ts';
import { recordInputs } from '../../ports/state-store/record-inputs.ts';
import { parseInput } from '../../ports/state-store/errors.ts';
import type {
  CensusResult,
  CensusShardRecord,
  CommandFailure,
  CommandInput,
  CommandRecord,
  Fence,
  LaunchInput,
  LaunchOutcome,
  LaunchRecord,
  Lease,
  LeaseName,
  LeaseRequest,
  LeaseView,
  Nomination,
  PassState,
  PodVerdict,
  ReplacementIdentity,
  UnavailableOfferingRecord,
} from '../../ports/state-store/records.ts';
import type { CommandStatus } from '../../ports/state-store/command-states.ts';
import type { NegativeEntry } from '../../disruption/negative-cache.ts';
import type { ConsolidatedView } from '../../disruption/consolidated-state.ts';
import type { StateStore } from '../../ports/state-store/index.ts';
import { DYNAMODB_RETRY } from '../../config/dynamodb.ts';
import { realSleep } from '../backoff.ts';
import { RoundTripCounter } from './client.ts';
import type { RetryPolicy } from '../../config/retry-policy.ts';
import { Commands, type FencingMode } from './commands.ts';
import { toCensus } from './items.ts';
import { censusKey, censusPk, cleanupTtl } from './keys.ts';
import { getOrCreateDeployment } from './deployment.ts';
import { Launches } from './launches.ts';
import { Leases } from './leases.ts';
import { PassStateStore } from './pass-state.ts';
import { ReplacementBackoffs } from './replacement-backoffs.ts';
import type { BackoffEntry } from '../../disruption/replacement-backoff.ts';
import type { BackoffRelease } from '../../ports/state-store/replacement-backoffs.ts';
import { Table } from './table.ts';
import { CensusShards } from './census-shards.ts';

export interface DynamoDbStateStoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly clock: Clock;
  readonly retry?: RetryPolicy;
  /** Injected so tests of the backoff need not wait on wall time. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /**
   * How fenced writes are made: one transaction (ConditionCheck on the lease + the write; the default, safe
   * against late retries) or two single-item writes for servers without transactions (dynalite; README).
   */
  readonly fencing?: FencingMode;
  /**
   * The most two callers' clocks may differ: a lease is taken over only this long after its expiry by the
   * taker's clock (leases.ts, the timeline). 0 (the default) trusts every clock; deployed: LEASE_CLOCK_SKEW_MS.
   */
  readonly maxClockSkewMs?: number;
}

const cluster = (c: string, where: string): string => parseInput(storeName, c, `${where}.cluster`);

export class DynamoDbStateStore implements StateStore {
  /** Every HTTP request the store sent, retries included, by DynamoDB operation. */
  readonly roundTrips = new RoundTripCounter();
  private readonly table: Table;
  private readonly leases: Leases;
  private readonly pass: PassStateStore;
  private readonly commands: Commands;
  private readonly launches: Launches;
  private readonly backoffs: ReplacementBackoffs;
  private readonly shards: CensusShards;
  private readonly clock: Clock;

  constructor(options: DynamoDbStateStoreOptions) {
    const transport = {
      client: options.client,
      counter: this.roundTrips,
      retry: options.retry ?? DYNAMODB_RETRY,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
    };
    this.table = new Table(
      transport,
      parseInput(z.string().min(3).max(255), options.tableName, 'DynamoDbStateStore.tableName'),
    );
    this.clock = options.clock;
    this.leases = new Leases(this.table, options.clock, options.maxClockSkewMs);
    this.pass = new PassStateStore(this.table, options.clock);
    this.commands = new Commands(
      this.table,
      this.leases,
      options.clock,
      (c) => this.pass.clearNegative(c),
      options.fencing,
    );
    this.launches = new Launches(this.table, this.leases, options.clock);
    this.backoffs = new ReplacementBackoffs(this.table, options.clock);
    this.shards = new CensusShards(this.table);
  }

  async acquireLease(request: LeaseRequest): Promise<Lease> {
    return this.leases.acquire(recordInputs.acquireLease(request));
  }
  async heartbeatLease(lease: Fence, ttlMs: number): Promise<Lease> {
    return this.leases.heartbeat(recordInputs.heartbeatLease(lease, ttlMs), ttlMs);
  }
  async releaseLease(lease: Fence): Promise<void> {
    return this.leases.release(recordInputs.releaseLease(lease));
  }
  async readLease(c: string, name: LeaseName): Promise<LeaseView | undefined> {
    return this.leases.read(cluster(c, 'readLease'), name);
  }

  async loadPassState(c: string): Promise<PassState> {
    return this.pass.load(cluster(c, 'loadPassState'), this.commands.open(c));
  }
  async startCoverageCycle(c: string, nodePool: string, expected: number): Promise<number> {
    return this.pass.startCycle(cluster(c, 'startCoverageCycle'), nodePool, expected);
  }
  async putUnseenPools(c: string, expected: number, pools: readonly string[]): Promise<number> {
    return this.pass.putUnseenPools(cluster(c, 'putUnseenPools'), expected, pools);
  }
  async markEvaluated(
    c: string,
    nodePool: string,
    cycle: number,
    candidates: readonly string[],
  ): Promise<void> {
    return this.pass.markEvaluated(cluster(c, 'markEvaluated'), nodePool, cycle, candidates);
  }
  async putNegativeEntries(c: string, epoch: number, entries: readonly NegativeEntry[]): Promise<void> {
    return this.pass.putNegative(cluster(c, 'putNegativeEntries'), epoch, entries);
  }
  async deleteNegativeEntries(c: string, candidates: readonly string[]): Promise<void> {
    return this.pass.deleteNegative(cluster(c, 'deleteNegativeEntries'), candidates);
  }
  async clearNegativeCache(c: string): Promise<number> {
    return this.pass.clearNegative(cluster(c, 'clearNegativeCache'));
  }
  async putConsolidatedView(c: string, view: ConsolidatedView | undefined): Promise<void> {
    return this.pass.putConsolidated(cluster(c, 'putConsolidatedView'), view);
  }
  async putVerdicts(c: string, verdicts: readonly PodVerdict[]): Promise<void> {
    return this.pass.putVerdicts(cluster(c, 'putVerdicts'), verdicts);
  }
  async putNominations(c: string, nominations: readonly Nomination[]): Promise<void> {
    return this.pass.putNominations(cluster(c, 'putNominations'), nominations);
  }
  async deleteNominations(c: string, podKeys: readonly string[]): Promise<void> {
    return this.pass.deleteNominations(cluster(c, 'deleteNominations'), podKeys);
  }
  async putUnavailableOfferings(c: string, offerings: readonly UnavailableOfferingRecord[]): Promise<void> {
    return this.pass.putUnavailable(cluster(c, 'putUnavailableOfferings'), offerings);
  }

  async admitCommand(fence: Fence, command: CommandInput): Promise<CommandRecord> {
    const parsed = recordInputs.admitCommand(fence, command);
    return this.commands.admit(parsed.fence, parsed.command);
  }
  async confirmCommand(
    fence: Fence,
    id: string,
    replacements?: readonly ReplacementIdentity[],
  ): Promise<CommandRecord> {
    const parsed = recordInputs.confirmCommand(fence, id, replacements);
    return this.commands.confirm(parsed.fence, id, parsed.replacements);
  }
  async getCommand(c: string, id: string): Promise<CommandRecord | undefined> {
    const k = cluster(c, 'getCommand');
    recordInputs.getCommand(id);
    return this.commands.get(k, id);
  }
  async findCommandsByCandidate(c: string, candidate: string): Promise<CommandRecord[]> {
    const k = cluster(c, 'findCommandsByCandidate');
    recordInputs.findCommandsByCandidate(candidate);
    return this.commands.byCandidate(k, candidate);
  }
  async listCommandsByStatus(c: string, status: CommandStatus): Promise<CommandRecord[]> {
    return this.commands.byStatus(cluster(c, 'listCommandsByStatus'), status);
  }
  async transitionCommand(
    c: string,
    id: string,
    from: CommandStatus,
    to: CommandStatus,
  ): Promise<CommandRecord> {
    const k = cluster(c, 'transitionCommand');
    recordInputs.transitionCommand(id, from, to);
    return this.commands.transition(k, id, from, to);
  }
  async recordCommandFailure(
    c: string,
    id: string,
    from: CommandStatus,
    failure: CommandFailure | undefined,
  ): Promise<CommandRecord> {
    const k = cluster(c, 'recordCommandFailure');
    return this.commands.recordFailure(k, id, from, recordInputs.recordCommandFailure(id, failure));
  }

  async recordLaunch(fence: Fence, launch: LaunchInput): Promise<{ record: LaunchRecord; created: boolean }> {
    const parsed = recordInputs.recordLaunch(fence, launch);
    return this.launches.record(parsed.fence, parsed.launch);
  }
  async completeLaunch(c: string, claimName: string, outcome: LaunchOutcome): Promise<LaunchRecord> {
    const k = cluster(c, 'completeLaunch');
    return this.launches.complete(k, claimName, recordInputs.completeLaunch(claimName, outcome));
  }
  async getLaunch(c: string, claimName: string): Promise<LaunchRecord | undefined> {
    const k = cluster(c, 'getLaunch');
    recordInputs.getLaunch(claimName);
    return this.launches.get(k, claimName);
  }

  async deploymentId(c: string, candidate: string): Promise<string> {
    return getOrCreateDeployment(
      this.table,
      cluster(c, 'deploymentId'),
      parseInput(storeName, candidate, 'deploymentId.candidate'),
    );
  }

  async listReplacementBackoffs(c: string): Promise<BackoffEntry[]> {
    return this.backoffs.list(cluster(c, 'listReplacementBackoffs'));
  }
  async putReplacementBackoffs(c: string, entries: readonly BackoffEntry[]): Promise<void> {
    return this.backoffs.put(cluster(c, 'putReplacementBackoffs'), entries);
  }
  async deleteReplacementBackoffs(c: string, releases: readonly BackoffRelease[]): Promise<void> {
    return this.backoffs.release(cluster(c, 'deleteReplacementBackoffs'), releases);
  }

  async putCensus(c: string, results: readonly CensusResult[]): Promise<void> {
    const parsed = recordInputs.putCensus(results);
    const k = cluster(c, 'putCensus');
    await this.table.batchWrite(
      parsed.map((r) => ({
        ...censusKey(k, r.nodePool),
        ...r,
        at: r.at.getTime(),
        ttl: cleanupTtl(r.at.getTime() + CENSUS_RETENTION_MS),
      })),
    );
  }
  async listCensus(c: string): Promise<CensusResult[]> {
    const items = await this.table.query({ attr: 'pk', value: censusPk(cluster(c, 'listCensus')) });
    // DynamoDB's TTL deletes within days, not at once: an expired row is hidden here.
    const now = this.clock.now();
    return items
      .map(toCensus)
      .filter((r) => censusCurrent(r, now))
      .sort((a, b) => a.nodePool.localeCompare(b.nodePool));
  }

  async putCensusShard(c: string, shard: CensusShardRecord): Promise<{ created: boolean }> {
    return this.shards.put(cluster(c, 'putCensusShard'), recordInputs.putCensusShard(shard));
  }
  async listCensusShards(c: string, runId: string): Promise<CensusShardRecord[]> {
    return this.shards.list(cluster(c, 'listCensusShards'), recordInputs.listCensusShards(runId));
  }
}
