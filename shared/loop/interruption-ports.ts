// The interruption use case's narrow ports over one cluster read: claims matched by providerID, the cause
// stamped by annotation, and the "drain" that starts termination at once and evicts the Node's pods, so the
// replacement is provisioned while the cloud's two-minute warning runs.
import type { TerminationCause } from '../model/labels.ts';
import type { ClusterObjects } from '../state/objects.ts';
import type { InterruptionPorts, NodeClaimRef } from './interruption.ts';
import { drainStep, startTermination, type TerminationDeps } from './termination.ts';

export function interruptionPorts(
  deps: TerminationDeps,
  objects: ClusterObjects,
  drainTimeoutMs: number,
): InterruptionPorts {
  const claims = new Map(objects.nodeClaims.map((c) => [c.metadata.name, c]));
  const nodes = new Map(objects.nodes.filter((n) => n.spec?.providerID).map((n) => [n.spec?.providerID, n]));
  return {
    claims: {
      listNodeClaims: async () =>
        objects.nodeClaims.map((c): NodeClaimRef => ({
          name: c.metadata.name,
          ...(c.metadata.uid ? { uid: c.metadata.uid } : {}),
          ...(c.status?.providerID ? { providerID: c.status.providerID } : {}),
          ...(c.metadata.annotations ? { annotations: c.metadata.annotations } : {}),
          deleting: c.metadata.deletionTimestamp !== undefined,
        })),
    },
    annotator: {
      annotate: async (claim, annotations) =>
        void (await deps.cluster.patchMetadata('NodeClaim', claim, { annotations: { ...annotations } })),
    },
    drainer: {
      drain: async (ref: NodeClaimRef, cause: TerminationCause) => {
        const claim = claims.get(ref.name);
        if (!claim) return;
        const node = ref.providerID ? nodes.get(ref.providerID) : undefined;
        await startTermination(deps, claim, node, cause);
        if (node) await drainStep(deps, await deps.cluster.getNode(node.metadata.name), drainTimeoutMs);
      },
    },
    logger: deps.logger,
  };
}
