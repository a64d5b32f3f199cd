// StartCommand, the only place admission acts (Karpenter's queue.StartCommand), ordered so that a crash
// after any step leaves something orchestration can finish or undo:
//   record (fenced; with each candidate's identity) → taint candidates (and set their claims' DisruptionReason
//   condition) → create replacement NodeClaims →
//   launch records (fenced) → invoke the launchers → confirm (fenced; with the replacements' uids)
// The record comes first, so every disrupted taint and every replacement has a command that names it;
// orchestration drains only confirmed commands and rolls back an unconfirmed one once admission is over.
import { DISRUPTED_TAINT_KEY } from '../model/labels.ts';
import type { Cloud } from '../model/labels.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { Proposal } from '../disruption/proposal.ts';
import { COMMAND_LABEL, replacementClaim, replacementName } from '../disruption/replacement-claim.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { AlreadyExistsError } from '../ports/cluster/errors.ts';
import type {
  CandidateIdentity,
  CommandRecord,
  Fence,
  LaunchInput,
  ReplacementIdentity,
} from '../ports/state-store/records.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { Clock } from '../ports/clock.ts';
import { markDisruptionReason } from './disruption-reason.ts';
import type { AdmissionStage } from './disruption-metrics.ts';
import type { LaunchRequestPayload } from './launch-request.ts';

export const DISRUPTED_TAINT = { key: DISRUPTED_TAINT_KEY, effect: 'NoSchedule' } as const;

export interface StartDeps {
  readonly store: StateStore;
  readonly cluster: Cluster;
  /**
   * Hands a created replacement claim to its cloud's launcher (an async invoke in Lambda). Its launch record
   * is written, fenced on the lock, before: the launcher runs later and only completes that record.
   */
  launch(claim: NodeClaim, via: LaunchVia): Promise<void>;
  /** A fresh command id: lowercase, [a-z0-9], at least 10 characters. */
  newId(): string;
  readonly clock: Clock;
}

export interface LaunchVia {
  readonly cloud: Cloud;
  readonly request: LaunchRequestPayload;
}

/** A step of StartCommand failed; `stage` says which, `cause` why. */
export class StartCommandError extends Error {
  override readonly name = 'StartCommandError';
  constructor(
    readonly stage: AdmissionStage,
    readonly commandId: string | undefined,
    options: { cause: unknown },
  ) {
    const why = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`starting command${commandId ? ` ${commandId}` : ''} failed at ${stage}: ${why}`, options);
  }
}

async function step<T>(stage: AdmissionStage, id: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause: unknown) {
    throw new StartCommandError(stage, id, { cause });
  }
}

/**
 * Starts one validated proposal; returns the command id. `onRecorded` sees the command record as soon as it
 * is written, before any later step can fail: from then on the command is open whatever happens next.
 */
export async function startCommand(
  deps: StartDeps,
  lock: Fence,
  proposal: Proposal,
  snapshot: ClusterSnapshot,
  onRecorded?: (record: CommandRecord) => void,
): Promise<string> {
  const id = deps.newId();
  const claims = proposal.replacements.map((r, i) => {
    const pool = snapshot.nodePools.get(r.nodePool)?.pool;
    if (!pool)
      throw new StartCommandError('claim', id, { cause: new Error(`NodePool ${r.nodePool} is gone`) });
    return replacementClaim(r, replacementName(r.nodePool, id, i), pool, id);
  });
  // Resolved before anything is written: a pool without a node class refuses the command untouched.
  const launches = claims.map((claim, i) => launchOf(proposal, i, claim, lock, id, snapshot));
  // The candidates as validated, by uid and providerID: orchestration acts only on these objects.
  const identities = await step('record', id, async () => candidateIdentities(proposal, snapshot));
  const record = await step('record', id, () =>
    deps.store.admitCommand(lock, {
      id,
      method: proposal.method,
      decision: claims.length > 0 ? 'replace' : 'delete',
      candidates: [...proposal.candidates],
      replacements: claims.map((c) => c.metadata.name),
      savingsPerHour: proposal.savingsPerHour,
      identities,
    }),
  );
  onRecorded?.(record);
  for (const node of proposal.candidates)
    await step('taint', id, () => deps.cluster.addTaint(node, DISRUPTED_TAINT));
  // Karpenter's markDisrupted sets the DisruptionReason condition with the taint (disruption-reason.ts).
  for (const c of identities)
    if (c.claim) {
      const claim = c.claim;
      await step('taint', id, () => markDisruptionReason(deps, claim, proposal.reason));
    }
  const created: ReplacementIdentity[] = [];
  for (const claim of claims)
    created.push(await step('claim', id, () => createReplacement(deps.cluster, claim, id)));
  for (const l of launches) await step('launch', id, () => deps.store.recordLaunch(lock, l.record));
  for (const l of launches) await step('launch', id, () => deps.launch(l.claim, l.via));
  // Mark for deletion: the fenced confirmation that every step above happened while the lock was ours.
  await step('confirm', id, () => deps.store.confirmCommand(lock, id, created));
  return id;
}

/** Each candidate's Node and NodeClaim as the validated snapshot holds them (docs/mechanisms/identity.md). */
function candidateIdentities(proposal: Proposal, snapshot: ClusterSnapshot): CandidateIdentity[] {
  const byName = new Map(snapshot.nodes.map((n) => [n.name, n]));
  return proposal.candidates.map((name) => {
    const s = byName.get(name);
    const uid = s?.node?.metadata.uid;
    if (!s?.node || !uid) throw new Error(`candidate ${name} has no Node with a uid in the live snapshot`);
    const claim = s.claim;
    const providerId = s.node.spec?.providerID ?? claim?.status?.providerID;
    return {
      node: name,
      nodeUid: uid,
      ...(claim?.metadata.uid ? { claim: claim.metadata.name, claimUid: claim.metadata.uid } : {}),
      ...(providerId ? { providerId } : {}),
    };
  });
}

/** Creates a replacement claim; one a retried admission already created is taken only if it is this command's. */
async function createReplacement(
  cluster: Cluster,
  claim: NodeClaim,
  commandId: string,
): Promise<ReplacementIdentity> {
  const name = claim.metadata.name;
  let made: NodeClaim;
  try {
    made = await cluster.createNodeClaim(claim);
  } catch (error: unknown) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    made = await cluster.getNodeClaim(name);
    if (made.metadata.labels?.[COMMAND_LABEL] !== commandId)
      throw new Error(`NodeClaim ${name} exists and belongs to no command ${commandId}`, { cause: error });
  }
  if (!made.metadata.uid) throw new Error(`NodeClaim ${name} came back without a uid`);
  return { claim: name, claimUid: made.metadata.uid };
}

function launchOf(
  proposal: Proposal,
  i: number,
  claim: NodeClaim,
  lock: Fence,
  id: string,
  snapshot: ClusterSnapshot,
): { claim: NodeClaim; record: LaunchInput; via: LaunchVia } {
  const r = proposal.replacements[i];
  const nodeClass = r ? snapshot.nodePools.get(r.nodePool)?.nodeClass : undefined;
  if (!r || !nodeClass)
    throw new StartCommandError('launch', id, {
      cause: new Error(`NodePool ${r?.nodePool ?? '?'} has no node class to launch with`),
    });
  const fence = { cluster: lock.cluster, name: lock.name, owner: lock.owner, token: lock.token };
  return {
    claim,
    record: { claimName: claim.metadata.name, cloud: r.cloud, nodePool: r.nodePool, commandId: id },
    via: { cloud: r.cloud, request: { fence, nodeClass, claims: [claim.metadata.name], commandId: id } },
  };
}
