// The bootstrap token a launch hands its Kubeadm nodes (docs/mechanisms/bootstrap.md#kubeadm): the Secret the node
// class names (spec.bootstrap.joinTokenSecretRef), else a short-lived token issued for this launch — the same one
// for every retry of the launch inside one 30-minute window (so the user data, and the launch template, repeat).
import { bootstrapFamily, type JoinToken } from '../model/join-readiness.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import type { Clock } from '../ports/clock.ts';
import type { Cluster } from '../ports/cluster/index.ts';

/** A token is issued per window and lives until the end of the next one: 30 to 60 minutes from its first use. */
export const JOIN_TOKEN_WINDOW_MS = 30 * 60_000;

export async function joinTokenFor(
  deps: { readonly cluster: Cluster; readonly clock: Clock },
  nodeClasses: readonly NodeClass[],
  launchKey: string,
): Promise<JoinToken | undefined> {
  const kubeadm = nodeClasses.filter((nc) => bootstrapFamily(nc).family === 'Kubeadm');
  if (kubeadm.length === 0) return undefined;
  const ref = kubeadm.map((nc) => nc.spec.bootstrap?.joinTokenSecretRef).find((r) => r !== undefined);
  if (ref) return deps.cluster.readJoinToken(ref.name);
  const window = Math.floor(deps.clock.now().getTime() / JOIN_TOKEN_WINDOW_MS);
  return deps.cluster.issueJoinToken({
    key: `${launchKey}/${window}`,
    expiresAt: new Date((window + 2) * JOIN_TOKEN_WINDOW_MS),
    description: `kraftsman launch ${launchKey}`,
  });
}
