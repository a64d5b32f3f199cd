// Whether a command's candidate is still the object admission recorded (docs/mechanisms/identity.md,
// "Commands"): a direct GET of its Node and NodeClaim right before orchestration drains, evicts or
// terminates, compared with the recorded uids and providerID. EC2 node names are private-IP DNS names and
// IPs are reused, so a Node under a candidate's name may be another machine: that one is never touched.
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import type { CandidateIdentity, CommandRecord } from '../ports/state-store/records.ts';

/** What a re-read found under a candidate's name. */
export type CandidateCheck =
  /** Node (and NodeClaim, if one was recorded) are the recorded objects: act on them. */
  | {
      readonly kind: 'intact';
      readonly identity: CandidateIdentity;
      readonly node: Node;
      readonly claim: NodeClaim | undefined;
    }
  /** The Node is gone; `claim` is the recorded NodeClaim if it is still there (the candidate's remains). */
  | { readonly kind: 'gone'; readonly identity: CandidateIdentity; readonly claim: NodeClaim | undefined }
  /** Another object holds the name: `object` says which, `detail` what differs. */
  | {
      readonly kind: 'impostor';
      readonly identity: CandidateIdentity;
      readonly object: Node | NodeClaim;
      readonly detail: string;
      /** The recorded NodeClaim, when it is still there and the impostor is the Node. */
      readonly claim: NodeClaim | undefined;
    }
  /** A record written before identities were recorded: nothing can be proved, so nothing is destroyed. */
  | { readonly kind: 'unrecorded'; readonly node: Node | undefined };

export const identityOf = (cmd: CommandRecord, name: string): CandidateIdentity | undefined =>
  cmd.identities?.find((i) => i.node === name);

/** A GET that answers undefined for 404 (every other error is the caller's). */
export async function getOrAbsent<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error: unknown) {
    if (error instanceof ObjectNotFoundError) return undefined;
    throw error;
  }
}

/** Re-reads one candidate by direct GETs (never the pass's snapshot) and compares it with the record. */
export async function checkCandidate(
  cluster: Pick<Cluster, 'getNode' | 'getNodeClaim'>,
  cmd: CommandRecord,
  name: string,
): Promise<CandidateCheck> {
  const identity = identityOf(cmd, name);
  const node = await getOrAbsent(() => cluster.getNode(name));
  if (!identity) return { kind: 'unrecorded', node };
  const claimName = identity.claim;
  const found = claimName ? await getOrAbsent(() => cluster.getNodeClaim(claimName)) : undefined;
  const claimMismatch = found && found.metadata.uid !== identity.claimUid;
  const claim = claimMismatch ? undefined : found;
  if (!node) return { kind: 'gone', identity, claim };
  const nodeMismatch = nodeDiffers(identity, node);
  if (nodeMismatch) return { kind: 'impostor', identity, object: node, detail: nodeMismatch, claim };
  if (claimMismatch && found)
    return {
      kind: 'impostor',
      identity,
      object: found,
      detail: `NodeClaim ${found.metadata.name} has uid ${found.metadata.uid ?? '(none)'}, the command recorded ${identity.claimUid ?? '(none)'}`,
      claim: undefined,
    };
  return { kind: 'intact', identity, node, claim };
}

/** Why `node` is not the recorded Node (undefined when it is). */
function nodeDiffers(identity: CandidateIdentity, node: Node): string | undefined {
  if (node.metadata.uid !== identity.nodeUid)
    return `Node ${node.metadata.name} has uid ${node.metadata.uid ?? '(none)'}, the command recorded ${identity.nodeUid}`;
  const pid = node.spec?.providerID;
  if (identity.providerId && pid && pid !== identity.providerId)
    return `Node ${node.metadata.name} has providerID ${pid}, the command recorded ${identity.providerId}`;
  return undefined;
}
