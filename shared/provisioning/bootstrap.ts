// The user data a new instance boots with (EC2 user data, GCE startup-script), shared by both launchers and
// `kraftsman userdata`: one renderer per bootstrap family (docs/mechanisms/bootstrap.md), chosen by the node class.
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import { bootstrapFamily, joinProblem, type JoinToken } from '../model/join-readiness.ts';
import { renderBottlerocket } from './bootstrap-bottlerocket.ts';
import { renderCustom } from './bootstrap-custom.ts';
import { joinFacts, type JoinFacts } from './bootstrap-facts.ts';
import { renderKubeadm } from './bootstrap-kubeadm.ts';
import { renderNodeadm } from './bootstrap-nodeadm.ts';

export { kubeletLabels, registrationTaints } from './bootstrap-facts.ts';

/** A node class that cannot produce user data that joins: the launch is refused, never sent. */
export class BootstrapError extends Error {
  override name = 'BootstrapError' as const;
}

export interface UserDataInput {
  readonly cluster: string;
  readonly claim: NodeClaim;
  readonly nodeClass: NodeClass;
  /** The bootstrap token a Kubeadm node joins with (issued or read by the launcher); other families need none. */
  readonly join?: JoinToken;
}

/** What the instance is given at launch, as text (the EC2 adapter base64-encodes it into the launch template). */
export function renderUserData(input: UserDataInput): string {
  const nc = input.nodeClass;
  const where = `${nc.kind} ${nc.metadata.name}`;
  const problem = joinProblem(nc);
  if (problem) throw new BootstrapError(`${where}: ${problem}`);
  const facts: JoinFacts = joinFacts(input.cluster, input.claim, nc);
  const userData = nc.kind === 'EC2NodeClass' ? nc.spec.userData : undefined;
  try {
    switch (bootstrapFamily(nc).family) {
      case 'AL2023':
        return renderNodeadm(facts, userData);
      case 'Bottlerocket':
        return renderBottlerocket(facts, userData);
      case 'Custom':
        return renderCustom(facts, userData ?? nc.spec.bootstrap?.script ?? '');
      case 'Kubeadm': {
        if (!input.join)
          throw new Error(
            'no join token: the launcher issues one per launch or reads spec.bootstrap.joinTokenSecretRef',
          );
        return renderKubeadm(
          facts,
          input.join,
          nc.kind === 'EC2NodeClass' ? 'aws' : 'gcp',
          userData,
          nc.spec.bootstrap?.script,
        );
      }
    }
  } catch (err: unknown) {
    if (err instanceof BootstrapError) throw err;
    throw new BootstrapError(`${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
