// A command's replacement NodeClaims as orchestration judges them: whether the claim under a replacement's
// name is this command's (its label, and the uid the confirmation recorded), and whether every replacement
// is up — its absence confirmed by a direct GET, never taken from a snapshot older than the command.
import { COMMAND_LABEL } from '../disruption/replacement-claim.ts';
import { NODEPOOL } from '../model/labels.ts';
import { claimCondition, type NodeClaim } from '../model/nodeclaim.ts';
import type { Clock } from '../ports/clock.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';
import { getOrAbsent } from './command-identity.ts';

export const REPLACEMENT_TIMEOUT_MS = 15 * 60_000;
export const ADMISSION_GRACE_MS = 10 * 60_000;

/** The claim is the one this command created: its command label and, once confirmed, its recorded uid. */
export function ownsReplacement(cmd: CommandRecord, claim: NodeClaim): boolean {
  if (claim.metadata.labels?.[COMMAND_LABEL] !== cmd.id) return false;
  const recorded = cmd.replacementIdentities?.find((r) => r.claim === claim.metadata.name);
  return recorded === undefined || recorded.claimUid === claim.metadata.uid;
}

export interface VerdictDeps {
  readonly cluster: Pick<Cluster, 'getNodeClaim'>;
  readonly clock: Clock;
}

export interface VerdictTimes {
  readonly replacementTimeoutMs?: number;
  readonly admissionGraceMs?: number;
  /**
   * A NodePool's registration timeout (its kraftsman.dev/registration-timeout; 0 when it names none): a
   * replacement is waited for at least that long, so a GPU pool's 25 minutes are not cut short at 15.
   */
  readonly registrationTimeoutMs?: (nodePool: string) => number;
}

/** What a launching command does next; `replacementFailed`: a replacement never launched or initialized. */
export type LaunchVerdict =
  | { readonly next: 'wait' | 'draining' }
  | { readonly next: 'rolling-back'; readonly replacementFailed: boolean };

const rollBack = (replacementFailed: boolean): LaunchVerdict => ({ next: 'rolling-back', replacementFailed });

/*
 * Why a replacement missing from the snapshot is looked up before the command is rolled back:
 *
 *   orchestrate:  read snapshot ─────────────────────────────── list commands ── verdict
 *   admit:                      record ─ taint ─ create claim ─ confirm
 *
 * The snapshot is read before the commands (so a disrupted taint it shows predates its command's record:
 * orchestrate.ts), so a command admitted in between is listed with replacement claims the snapshot never saw.
 * Their absence there proves nothing; a direct GET, made after the command was listed, does.
 */
/** What a launching command does next: drain once every replacement initialized, roll back on failure. */
export async function launchVerdict(
  deps: VerdictDeps,
  times: VerdictTimes,
  claims: ReadonlyMap<string, NodeClaim>,
  cmd: CommandRecord,
): Promise<LaunchVerdict> {
  const age = deps.clock.now().getTime() - cmd.createdAt.getTime();
  if (!cmd.confirmedAt)
    return age > (times.admissionGraceMs ?? ADMISSION_GRACE_MS) ? rollBack(false) : { next: 'wait' };
  // Recorded before identities were: nothing proves its candidates are still the ones, so it is undone.
  if (!cmd.identities) return rollBack(false);
  let ready = true;
  let timeout = times.replacementTimeoutMs ?? REPLACEMENT_TIMEOUT_MS;
  for (const name of cmd.replacements) {
    const claim = claims.get(name) ?? (await getOrAbsent(() => deps.cluster.getNodeClaim(name)));
    if (
      !claim ||
      !ownsReplacement(cmd, claim) ||
      claim.metadata.deletionTimestamp ||
      claimCondition(claim, 'Launched') === false
    )
      return rollBack(true);
    if (claimCondition(claim, 'Initialized') !== true) ready = false;
    const pool = claim.metadata.labels?.[NODEPOOL];
    if (pool !== undefined) timeout = Math.max(timeout, times.registrationTimeoutMs?.(pool) ?? 0);
  }
  if (ready) return { next: 'draining' };
  return age > timeout ? rollBack(true) : { next: 'wait' };
}
