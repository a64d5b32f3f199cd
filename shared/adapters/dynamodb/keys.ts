// Key layout of the single state table (see README.md here): one partition per cluster and kind, sort keys
// prefixed by item type, so that a pass reads its whole state with one paginated Query.
import type { CommandStatus } from '../../ports/state-store/command-states.ts';
import type { LeaseName } from '../../ports/state-store/records.ts';
import { OPEN_COMMAND_STATUSES } from '../../ports/state-store/command-states.ts';

export type Key = { readonly pk: string; readonly sk: string };
export const GSI1 = 'gsi1';

export const leaseKey = (cluster: string, name: LeaseName): Key => ({ pk: `C#${cluster}#LEASE`, sk: name });

export const passPk = (cluster: string): string => `C#${cluster}#PASS`;
export const PASS_SK = {
  epoch: 'EPOCH',
  consolidated: 'CONSOLIDATED',
  cycle: 'COV#',
  unseen: 'UNSEEN',
  member: 'COVM#',
  negative: 'NEG#',
  verdict: 'VERDICT#',
  nomination: 'NOM#',
  unavailable: 'UNAVAIL#',
} as const;
/** Replacement-backoff holds: one item per candidate (replacement-backoffs.ts). */
export const backoffPk = (cluster: string): string => `C#${cluster}#BACKOFF`;
export const backoffKey = (cluster: string, candidate: string): Key => ({
  pk: backoffPk(cluster),
  sk: candidate,
});
export const epochKey = (cluster: string): Key => ({ pk: passPk(cluster), sk: PASS_SK.epoch });
export const consolidatedKey = (cluster: string): Key => ({ pk: passPk(cluster), sk: PASS_SK.consolidated });
export const cycleKey = (cluster: string, pool: string): Key => ({
  pk: passPk(cluster),
  sk: `${PASS_SK.cycle}${pool}`,
});
export const unseenKey = (cluster: string): Key => ({ pk: passPk(cluster), sk: PASS_SK.unseen });
export const memberKey = (cluster: string, pool: string, candidate: string): Key => ({
  pk: passPk(cluster),
  sk: `${PASS_SK.member}${pool}#${candidate}`,
});
export const negativeKey = (cluster: string, candidate: string): Key => ({
  pk: passPk(cluster),
  sk: `${PASS_SK.negative}${candidate}`,
});
export const verdictKey = (cluster: string, podKey: string): Key => ({
  pk: passPk(cluster),
  sk: `${PASS_SK.verdict}${podKey}`,
});
export const nominationKey = (cluster: string, podKey: string): Key => ({
  pk: passPk(cluster),
  sk: `${PASS_SK.nomination}${podKey}`,
});
export const unavailableKey = (
  cluster: string,
  o: { cloud: string; instanceType: string; zone: string; capacityType: string },
): Key => ({
  pk: passPk(cluster),
  sk: `${PASS_SK.unavailable}${o.cloud}#${o.instanceType}#${o.zone}#${o.capacityType}`,
});

export const commandKey = (cluster: string, id: string): Key => ({ pk: `C#${cluster}#CMD`, sk: id });
/** Open commands share one index partition (one Query per pass); terminal ones get one partition per status. */
export const statusPartition = (cluster: string, status: CommandStatus): string =>
  OPEN_COMMAND_STATUSES.includes(status) ? `C#${cluster}#CMD#open` : `C#${cluster}#CMD#${status}`;
export const statusSort = (status: CommandStatus, commandId: string): string => `${status}#${commandId}`;
export const candidateKey = (cluster: string, candidate: string, commandId: string): Key => ({
  pk: `C#${cluster}#CAND`,
  sk: `${candidate}#${commandId}`,
});
export const candidatePk = (cluster: string): string => `C#${cluster}#CAND`;

export const launchKey = (cluster: string, claimName: string): Key => ({
  pk: `C#${cluster}#LAUNCH`,
  sk: claimName,
});
/** The deployment's id: written once (put-if-absent), never changed; instances are labelled with it. */
export const deploymentKey = (cluster: string): Key => ({ pk: `C#${cluster}#DEPLOYMENT`, sk: 'ID' });
export const censusPk = (cluster: string): string => `C#${cluster}#CENSUS`;
export const censusKey = (cluster: string, nodePool: string): Key => ({
  pk: censusPk(cluster),
  sk: nodePool,
});

/** DynamoDB TTL (epoch seconds) for cleanup only, a day after the reader-decided expiry. */
export const cleanupTtl = (expiresAtMs: number): number => Math.ceil(expiresAtMs / 1000) + 86_400;
/** Census shard results (census-shards.ts): sk `<runId>#<shard, four digits>`, one Query lists a run's shards. */
export const censusShardPk = (cluster: string): string => `C#${cluster}#CSHARD`;
export const censusShardPrefix = (runId: string): string => `${runId}#`;
export const censusShardKey = (cluster: string, runId: string, shard: number): Key => ({
  pk: censusShardPk(cluster),
  sk: `${censusShardPrefix(runId)}${String(shard).padStart(4, '0')}`,
});
