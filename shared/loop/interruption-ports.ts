// The interruption use case's cluster over one read: claims listed from it, the cause stamped by annotation,
// and the claim's deletion replaced by the start of its termination plus an immediate drain of its Node, so
// the replacement is provisioned while the cloud's two-minute warning runs.
import { TERMINATION_CAUSE } from '../model/labels.ts';
import type { ClusterObjects } from '../state/objects.ts';
import type { InterruptionPorts } from './interruption.ts';
import { drainStep, startTermination, type TerminationDeps } from './termination.ts';

export function interruptionPorts(
  deps: TerminationDeps,
  objects: ClusterObjects,
  drainTimeoutMs: number,
): InterruptionPorts {
  const claims = new Map(objects.nodeClaims.map((c) => [c.metadata.name, c]));
  const nodes = new Map(objects.nodes.filter((n) => n.spec?.providerID).map((n) => [n.spec?.providerID, n]));
  const stamped = new Map<string, string>();
  const cluster: InterruptionPorts['cluster'] = {
    listNodeClaims: async () => [...objects.nodeClaims],
    patchMetadata: (async (
      kind: 'NodeClaim',
      name: string,
      change: Parameters<TerminationDeps['cluster']['patchMetadata']>[2],
    ) => {
      const cause = change.annotations?.[TERMINATION_CAUSE];
      if (cause) stamped.set(name, cause);
      return deps.cluster.patchMetadata(kind, name, change);
    }) as InterruptionPorts['cluster']['patchMetadata'],
    deleteNodeClaim: async (name: string) => {
      const claim = claims.get(name);
      if (!claim) return;
      const node = claim.status?.providerID ? nodes.get(claim.status.providerID) : undefined;
      const cause = stamped.get(name) ?? claim.metadata.annotations?.[TERMINATION_CAUSE] ?? 'interrupted';
      await startTermination(deps, claim, node, cause);
      if (node) await drainStep(deps, await deps.cluster.getNode(node.metadata.name), drainTimeoutMs);
    },
  };
  return { cluster, logger: deps.logger };
}
