// What orchestration does with a candidate that is no longer the object its command recorded
// (docs/mechanisms/identity.md, "Commands"): a vanished one is finished from its remains (its recorded
// instance and NodeClaim, by identity); an impostor under its name is refused and never touched.
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { CandidateIdentity } from '../ports/state-store/records.ts';
import { removeOwned, untaint, type ActionDeps, type Remains } from './command-actions.ts';
import type { CandidateCheck } from './command-identity.ts';
import { refuse, type DestructiveAction, type RefusalDeps } from './refusals.ts';

export type SettleDeps = ActionDeps & RefusalDeps;

const providerIdOf = (o: Node | NodeClaim): string | undefined =>
  o.kind === 'Node' ? o.spec?.providerID : o.status?.providerID;

/** The recorded instance and (when still there, same uid) the recorded NodeClaim. */
export const remainsOf = (identity: CandidateIdentity, claim: NodeClaim | undefined): Remains => ({
  providerId: identity.providerId ?? claim?.status?.providerID,
  labels: { ...(claim?.metadata.labels ?? {}) },
  ...(claim ? { claim: { name: claim.metadata.name, uid: claim.metadata.uid } } : {}),
});

/** The candidate is done once this returns: gone and finished, or refused. */
export async function settleCandidate(
  deps: SettleDeps,
  name: string,
  check: Exclude<CandidateCheck, { kind: 'intact' }>,
  action: DestructiveAction,
): Promise<void> {
  if (check.kind === 'gone') {
    // Its recorded instance refused as not ours is counted and left alone: the vanished candidate is done.
    await removeOwned(deps, remainsOf(check.identity, check.claim));
    return;
  }
  if (check.kind === 'unrecorded') {
    await refuse(deps, {
      action,
      reason: 'identity-unrecorded',
      message: `the command recorded no identity for candidate ${name}: left undrained and untainted`,
      ...(check.node ? { object: { kind: 'Node', name, uid: check.node.metadata.uid } } : {}),
    });
    if (check.node) await untaint(deps, name);
    return;
  }
  const theirs = providerIdOf(check.object);
  await refuse(deps, {
    action,
    reason: 'identity-mismatch',
    message: `candidate ${name}: ${check.detail}; it is not drained, evicted or terminated`,
    ...(theirs ? { providerId: theirs } : {}),
    object: { kind: check.object.kind, name: check.object.metadata.name, uid: check.object.metadata.uid },
  });
  // A Node took the name: the recorded candidate is gone, finished from its remains — unless its instance is
  // the one behind the new Node (the same machine registered again), which is then left alone with its claim.
  if (check.object.kind !== 'Node') return;
  const remains = remainsOf(check.identity, check.claim);
  if (remains.providerId !== undefined && remains.providerId === theirs) return;
  await removeOwned(deps, remains);
}
