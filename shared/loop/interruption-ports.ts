// The interruption use case's cluster over one read: claims listed from it, the cause stamped by annotation,
// and the claim's deletion replaced by the start of its termination plus an immediate drain of its Node, so
// the replacement is provisioned while the cloud's two-minute warning runs. Nothing an invalid object
// concerns is touched, and a Node the view lacks is looked up directly before the instance goes undrained
// (docs/mechanisms/identity.md).
import { TERMINATION_CAUSE } from '../model/labels.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import type { SnapshotRead } from '../ports/cluster/index.ts';
import { publishEvents } from './events.ts';
import { guard } from './guard.ts';
import type { InterruptionPorts } from './interruption.ts';
import { drainStep, startTermination, TERMINATION_STARTED, type TerminationDeps } from './termination.ts';

export function interruptionPorts(
  deps: TerminationDeps,
  read: Pick<SnapshotRead, 'objects' | 'invalid'>,
  drainTimeoutMs: number,
  /**
   * The queue's messages come back after a failure, and their retry must drain; the scheduled run's signals need
   * not, as the same run drains every terminating Node afterwards.
   */
  retryDrains = false,
): InterruptionPorts {
  const { objects } = read;
  const g = guard(deps, read);
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
      const pid = claim.status?.providerID;
      const seen = pid ? nodes.get(pid) : undefined;
      const target = { claim: name, node: seen?.metadata.name ?? claim.status?.nodeName, providerId: pid };
      if (!(await g.touchable('terminate', target))) return;
      // Without a Node the instance would be terminated undrained: the view may lag one, so ask directly.
      const node = seen ?? (pid ? await g.nodeOf(claim) : undefined);
      const cause = stamped.get(name) ?? claim.metadata.annotations?.[TERMINATION_CAUSE] ?? 'interrupted';
      await startTermination(deps, claim, node, cause);
      if (node) await drainStep(deps, await deps.cluster.getNode(node.metadata.name), drainTimeoutMs);
    },
  };
  // An instance whose termination started (its Node carries TERMINATION_STARTED; its claim is deleting or
  // gone): one more drain step, with no second start and no second count.
  const drainLeaving = async (instance: (providerID: string | undefined) => boolean) => {
    const seen = objects.nodes.find(
      (n) => instance(n.spec?.providerID) && n.metadata.annotations?.[TERMINATION_STARTED] !== undefined,
    );
    if (!seen) return false;
    const target = { node: seen.metadata.name, providerId: seen.spec?.providerID };
    if (!(await g.touchable('terminate', target))) return false;
    // A Node gone meanwhile has nothing left to drain.
    const fresh = await deps.cluster.getNode(seen.metadata.name).catch((err: unknown) => {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    });
    if (fresh) await drainStep(deps, fresh, drainTimeoutMs);
    return fresh !== undefined;
  };
  return {
    cluster,
    ...(retryDrains ? { drainLeaving } : {}),
    logger: deps.logger,
    publish: (events) => publishEvents(deps, events),
  };
}
