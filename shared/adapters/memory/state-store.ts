// In-memory StateStore for the pure tests and the CLI: the same rules as the DynamoDB adapter (leases with
// fencing tokens, epochs, expiry decided by the injected Clock), each "conditional write" one synchronous step.
import type { Clock } from '../../ports/clock.ts';
import { acquire, heldBy, isLive, newClusterState, toLease, toView, viewOf } from './cluster-state.ts';
import type { ClusterState, MemoryStateData, StoredLease } from './cluster-state.ts';
import { COMMAND_TRANSITIONS, endsCommand } from '../../ports/state-store/command-states.ts';
import {
  ConditionFailedError,
  LockLostError,
  StaleWriteError,
  parseInput,
} from '../../ports/state-store/errors.ts';
import { passStateInputs } from '../../ports/state-store/pass-state-inputs.ts';
import { recordInputs } from '../../ports/state-store/record-inputs.ts';
import { admittedCommand, censusCurrent, pendingLaunch, storeName } from '../../ports/state-store/records.ts';
import type {
  CensusResult,
  CensusShardRecord,
  CommandFailure,
  CommandInput,
  CommandRecord,
  CoverageCycle,
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
  StoredNegativeEntry,
  UnavailableOfferingRecord,
} from '../../ports/state-store/records.ts';
import type { CommandStatus } from '../../ports/state-store/command-states.ts';
import type { NegativeEntry } from '../../disruption/negative-cache.ts';
import type { BackoffEntry } from '../../disruption/replacement-backoff.ts';
import type { BackoffRelease } from '../../ports/state-store/replacement-backoffs.ts';
import { liveBackoffs, putBackoffs, releaseBackoffs } from './backoffs.ts';
import type { ConsolidatedView } from '../../disruption/consolidated-state.ts';
import type { StateStore } from '../../ports/state-store/index.ts';

export type { MemoryStateData };

export class MemoryStateStore implements StateStore {
  constructor(
    private readonly clock: Clock,
    private readonly clusters: MemoryStateData = new Map(),
  ) {}

  private state(cluster: string, where: string): ClusterState {
    parseInput(storeName, cluster, `${where}.cluster`);
    let s = this.clusters.get(cluster);
    if (!s) {
      s = newClusterState();
      this.clusters.set(cluster, s);
    }
    return s;
  }

  async acquireLease(request: LeaseRequest): Promise<Lease> {
    const r = recordInputs.acquireLease(request);
    const s = this.state(r.cluster, 'acquireLease');
    return toLease(acquire(s, r, this.clock.now()));
  }

  async heartbeatLease(lease: Fence, ttlMs: number): Promise<Lease> {
    recordInputs.heartbeatLease(lease, ttlMs);
    const now = this.clock.now();
    const current = this.heldBy(lease, now);
    if (!current)
      throw new LockLostError(lease, viewOf(this.state(lease.cluster, 'heartbeatLease'), lease.name));
    current.expiresAt = new Date(now.getTime() + ttlMs);
    return toLease(current);
  }

  async releaseLease(lease: Fence): Promise<void> {
    recordInputs.releaseLease(lease);
    const current = this.state(lease.cluster, 'releaseLease').leases.get(lease.name);
    if (!current || current.owner !== lease.owner || current.token !== lease.token)
      throw new LockLostError(lease, current && toView(current));
    current.released = true;
    current.expiresAt = this.clock.now();
  }

  async readLease(cluster: string, name: LeaseName): Promise<LeaseView | undefined> {
    const l = this.state(cluster, 'readLease').leases.get(name);
    return l ? toView(l) : undefined;
  }

  private heldBy(fence: Fence, now: Date): StoredLease | undefined {
    return heldBy(this.state(fence.cluster, 'heldBy'), fence, now);
  }

  async loadPassState(cluster: string): Promise<PassState> {
    const s = this.state(cluster, 'loadPassState');
    const now = this.clock.now();
    const coverage = new Map<string, CoverageCycle>();
    for (const [pool, cycle] of s.cycles) {
      const evaluated = [...(s.evaluated.get(pool) ?? new Map<string, number>())]
        .filter(([, c]) => c === cycle)
        .map(([n]) => n);
      coverage.set(pool, { nodePool: pool, cycle, evaluated: new Set(evaluated) });
    }
    const live = <T extends { expiresAt: Date }>(m: Map<string, T>) =>
      new Map([...m].filter(([, v]) => isLive(v.expiresAt, now)));
    const negativeCache = new Map<string, NegativeEntry>();
    const negativeLeftovers = new Map<string, StoredNegativeEntry>();
    for (const [k, e] of s.negative) {
      const entry = { candidate: e.candidate, fingerprint: e.fingerprint, expiresAt: e.expiresAt };
      if (e.epoch === s.epoch && isLive(e.expiresAt, now)) negativeCache.set(k, entry);
      else negativeLeftovers.set(k, { ...entry, epoch: e.epoch });
    }
    return {
      epoch: s.epoch,
      coverage,
      unseenPools: { version: s.unseen.version, pools: [...s.unseen.pools] },
      negativeCache,
      negativeLeftovers,
      ...(s.consolidated
        ? { consolidated: { ...s.consolidated, methods: [...s.consolidated.methods] } }
        : {}),
      verdicts: live(s.verdicts),
      nominations: live(s.nominations),
      unavailableOfferings: [...live(s.unavailable).values()],
      openCommands: [...s.commands.values()]
        .filter((c) => COMMAND_TRANSITIONS[c.status].length > 0)
        .sort((a, b) => a.seq - b.seq),
    };
  }

  async startCoverageCycle(cluster: string, nodePool: string, expected: number): Promise<number> {
    passStateInputs.startCoverageCycle(nodePool, expected);
    const s = this.state(cluster, 'startCoverageCycle');
    const current = s.cycles.get(nodePool) ?? 0;
    if (current !== expected)
      throw new ConditionFailedError(
        `coverage cycle of ${cluster}/${nodePool} is ${current}, not ${expected}`,
        current,
      );
    s.cycles.set(nodePool, current + 1);
    return current + 1;
  }

  async markEvaluated(
    cluster: string,
    nodePool: string,
    cycle: number,
    candidates: readonly string[],
  ): Promise<void> {
    passStateInputs.markEvaluated(nodePool, cycle, candidates);
    const s = this.state(cluster, 'markEvaluated');
    const m = s.evaluated.get(nodePool) ?? new Map<string, number>();
    for (const c of candidates) m.set(c, cycle);
    s.evaluated.set(nodePool, m);
  }

  async putUnseenPools(cluster: string, expected: number, pools: readonly string[]): Promise<number> {
    const parsed = passStateInputs.putUnseenPools(expected, pools);
    const s = this.state(cluster, 'putUnseenPools');
    if (s.unseen.version !== expected)
      throw new ConditionFailedError(
        `unseen pools of ${cluster} are at version ${s.unseen.version}, not ${expected}`,
        s.unseen.version,
      );
    s.unseen = { version: expected + 1, pools: parsed };
    return expected + 1;
  }

  async putNegativeEntries(cluster: string, epoch: number, entries: readonly NegativeEntry[]): Promise<void> {
    const parsed = passStateInputs.putNegativeEntries(entries);
    const s = this.state(cluster, 'putNegativeEntries');
    for (const e of parsed) s.negative.set(e.candidate, { ...e, epoch });
  }

  async deleteNegativeEntries(cluster: string, candidates: readonly string[]): Promise<void> {
    const s = this.state(cluster, 'deleteNegativeEntries');
    for (const c of passStateInputs.deleteNegativeEntries(candidates)) s.negative.delete(c);
  }

  async clearNegativeCache(cluster: string): Promise<number> {
    const s = this.state(cluster, 'clearNegativeCache');
    s.epoch += 1;
    return s.epoch;
  }

  async putConsolidatedView(cluster: string, view: ConsolidatedView | undefined): Promise<void> {
    const parsed = passStateInputs.putConsolidatedView(view);
    const s = this.state(cluster, 'putConsolidatedView');
    if (parsed)
      s.consolidated = {
        fingerprint: parsed.fingerprint,
        since: new Date(parsed.since),
        methods: [...parsed.methods],
      };
    else delete s.consolidated;
  }

  async putVerdicts(cluster: string, verdicts: readonly PodVerdict[]): Promise<void> {
    const s = this.state(cluster, 'putVerdicts');
    for (const v of passStateInputs.putVerdicts(verdicts)) s.verdicts.set(v.podKey, v);
  }

  async putNominations(cluster: string, nominations: readonly Nomination[]): Promise<void> {
    const s = this.state(cluster, 'putNominations');
    for (const n of passStateInputs.putNominations(nominations)) s.nominations.set(n.podKey, n);
  }

  async deleteNominations(cluster: string, podKeys: readonly string[]): Promise<void> {
    const s = this.state(cluster, 'deleteNominations');
    for (const k of passStateInputs.deleteNominations(podKeys)) s.nominations.delete(k);
  }

  async putUnavailableOfferings(
    cluster: string,
    offerings: readonly UnavailableOfferingRecord[],
  ): Promise<void> {
    const s = this.state(cluster, 'putUnavailableOfferings');
    for (const o of passStateInputs.putUnavailableOfferings(offerings))
      s.unavailable.set(`${o.cloud}#${o.instanceType}#${o.zone}#${o.capacityType}`, o);
  }

  async admitCommand(fence: Fence, command: CommandInput): Promise<CommandRecord> {
    const c = recordInputs.admitCommand(fence, command).command;
    const s = this.state(fence.cluster, 'admitCommand');
    const now = this.clock.now();
    const existing = s.commands.get(c.id);
    if (existing && existing.fencingToken === fence.token && existing.admittedBy === fence.owner)
      return existing;
    const lock = this.heldBy(fence, now);
    if (!lock) throw new StaleWriteError(fence, viewOf(s, fence.name));
    if (existing)
      throw new ConditionFailedError(`command ${c.id} already exists in ${fence.cluster}`, existing);
    lock.seq += 1;
    const record = admittedCommand(fence, c, lock.seq, now);
    s.commands.set(c.id, record);
    s.epoch += 1; // an admitted command clears the negative cache (endsCommand's note)
    return record;
  }

  async confirmCommand(
    fence: Fence,
    id: string,
    replacements?: readonly ReplacementIdentity[],
  ): Promise<CommandRecord> {
    const ids = recordInputs.confirmCommand(fence, id, replacements).replacements;
    const s = this.state(fence.cluster, 'confirmCommand');
    const current = s.commands.get(id);
    const mine = current?.fencingToken === fence.token && current.admittedBy === fence.owner;
    if (current?.confirmedAt && mine) return current;
    if (!this.heldBy(fence, this.clock.now())) throw new StaleWriteError(fence, viewOf(s, fence.name));
    if (!current || !mine || current.status !== 'launching')
      throw new ConditionFailedError(
        `command ${fence.cluster}/${id} cannot be confirmed by ${fence.owner} (it is ${current?.status ?? 'absent'})`,
        current,
      );
    const now = this.clock.now();
    const next = {
      ...current,
      confirmedAt: now,
      updatedAt: now,
      ...(ids.length > 0 ? { replacementIdentities: ids } : {}),
    };
    s.commands.set(id, next);
    return next;
  }

  async getCommand(cluster: string, id: string): Promise<CommandRecord | undefined> {
    const s = this.state(cluster, 'getCommand');
    recordInputs.getCommand(id);
    return s.commands.get(id);
  }

  async findCommandsByCandidate(cluster: string, candidate: string): Promise<CommandRecord[]> {
    const s = this.state(cluster, 'findCommandsByCandidate');
    recordInputs.findCommandsByCandidate(candidate);
    return [...s.commands.values()]
      .filter((c) => c.candidates.includes(candidate))
      .sort((a, b) => a.seq - b.seq);
  }

  async listCommandsByStatus(cluster: string, status: CommandStatus): Promise<CommandRecord[]> {
    return [...this.state(cluster, 'listCommandsByStatus').commands.values()]
      .filter((c) => c.status === status)
      .sort((a, b) => a.seq - b.seq);
  }

  async transitionCommand(
    cluster: string,
    id: string,
    from: CommandStatus,
    to: CommandStatus,
  ): Promise<CommandRecord> {
    recordInputs.transitionCommand(id, from, to);
    const s = this.state(cluster, 'transitionCommand');
    const current = s.commands.get(id);
    if (!current || current.status !== from)
      throw new ConditionFailedError(
        `command ${cluster}/${id} is ${current?.status ?? 'absent'}, not ${from}`,
        current,
      );
    if (endsCommand(to)) s.epoch += 1;
    const { failures: _f, lastError: _e, retryAt: _r, ...rest } = current;
    const next = { ...rest, status: to, updatedAt: this.clock.now() };
    s.commands.set(id, next);
    return next;
  }

  async recordCommandFailure(
    cluster: string,
    id: string,
    from: CommandStatus,
    failure: CommandFailure | undefined,
  ): Promise<CommandRecord> {
    const f = recordInputs.recordCommandFailure(id, failure);
    const s = this.state(cluster, 'recordCommandFailure');
    const current = s.commands.get(id);
    if (!current || current.status !== from)
      throw new ConditionFailedError(
        `command ${cluster}/${id} is ${current?.status ?? 'absent'}, not ${from}`,
        current,
      );
    const { failures: _f, lastError: _e, retryAt: _r, ...rest } = current;
    const next: CommandRecord = f
      ? { ...rest, failures: (current.failures ?? 0) + 1, lastError: f.error, retryAt: f.retryAt }
      : rest;
    s.commands.set(id, next);
    return next;
  }

  async recordLaunch(fence: Fence, launch: LaunchInput): Promise<{ record: LaunchRecord; created: boolean }> {
    const l = recordInputs.recordLaunch(fence, launch).launch;
    const s = this.state(fence.cluster, 'recordLaunch');
    const now = this.clock.now();
    if (!this.heldBy(fence, now)) throw new StaleWriteError(fence, viewOf(s, fence.name));
    const existing = s.launches.get(l.claimName);
    if (existing) return { record: existing, created: false };
    const record = pendingLaunch(fence, l, now);
    s.launches.set(l.claimName, record);
    return { record, created: true };
  }

  async completeLaunch(cluster: string, claimName: string, outcome: LaunchOutcome): Promise<LaunchRecord> {
    const s = this.state(cluster, 'completeLaunch');
    recordInputs.completeLaunch(claimName, outcome);
    const current = s.launches.get(claimName);
    if (
      current &&
      current.status === outcome.status &&
      (outcome.status === 'failed' || current.providerId === outcome.providerId)
    )
      return current;
    if (!current || current.status !== 'pending')
      throw new ConditionFailedError(
        `launch ${cluster}/${claimName} is ${current?.status ?? 'absent'}, not pending`,
        current,
      );
    const next: LaunchRecord = { ...current, ...outcome, updatedAt: this.clock.now() };
    s.launches.set(claimName, next);
    return next;
  }

  async getLaunch(cluster: string, claimName: string): Promise<LaunchRecord | undefined> {
    const s = this.state(cluster, 'getLaunch');
    recordInputs.getLaunch(claimName);
    return s.launches.get(claimName);
  }

  async deploymentId(cluster: string, candidate: string): Promise<string> {
    const s = this.state(cluster, 'deploymentId');
    s.deployment ??= parseInput(storeName, candidate, 'deploymentId.candidate');
    return s.deployment;
  }

  async listReplacementBackoffs(cluster: string): Promise<BackoffEntry[]> {
    return liveBackoffs(this.state(cluster, 'listReplacementBackoffs'), this.clock.now());
  }
  async putReplacementBackoffs(cluster: string, entries: readonly BackoffEntry[]): Promise<void> {
    putBackoffs(this.state(cluster, 'putReplacementBackoffs'), entries);
  }
  async deleteReplacementBackoffs(cluster: string, releases: readonly BackoffRelease[]): Promise<void> {
    releaseBackoffs(this.state(cluster, 'deleteReplacementBackoffs'), releases);
  }

  async putCensus(cluster: string, results: readonly CensusResult[]): Promise<void> {
    const s = this.state(cluster, 'putCensus');
    for (const r of recordInputs.putCensus(results)) s.census.set(r.nodePool, r);
  }

  async listCensus(cluster: string): Promise<CensusResult[]> {
    const now = this.clock.now();
    return [...this.state(cluster, 'listCensus').census.values()]
      .filter((r) => censusCurrent(r, now))
      .sort((a, b) => a.nodePool.localeCompare(b.nodePool));
  }

  async putCensusShard(cluster: string, shard: CensusShardRecord): Promise<{ created: boolean }> {
    const s = this.state(cluster, 'putCensusShard');
    const r = recordInputs.putCensusShard(shard);
    const key = `${r.runId}#${r.shard}`;
    if (s.censusShards.has(key)) return { created: false };
    s.censusShards.set(key, structuredClone(r));
    return { created: true };
  }

  async listCensusShards(cluster: string, runId: string): Promise<CensusShardRecord[]> {
    const id = recordInputs.listCensusShards(runId);
    return [...this.state(cluster, 'listCensusShards').censusShards.values()]
      .filter((r) => r.runId === id)
      .map((r) => structuredClone(r))
      .sort((a, b) => a.shard - b.shard);
  }
}
