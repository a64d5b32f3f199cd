// Interruption use case: cloud signals (EC2 EventBridge events, GCE preemptions) become a
// kraftsman.dev/termination-cause annotation on the NodeClaim and an early drain. Like Karpenter's
// interruption controller, a drain-worthy signal deletes the claim, so termination taints and drains
// the node before the cloud takes it. Talks to the cluster through the Cluster port.
import { TERMINATION_CAUSE, type TerminationCause } from '../model/labels.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { InterruptionSignal } from '../ports/cloud-provider/index.ts';
import type { Cluster, ClusterEvent } from '../ports/cluster/index.ts';
import type { Logger } from '../ports/logger.ts';
import { interruptionEvents } from './interruption-events.ts';

/** What of a NodeClaim matching a signal needs: its instance, the cause already stamped, and whether it is going. */
interface NodeClaimRef {
  readonly name: string;
  readonly uid?: string;
  readonly providerID?: string;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly deleting?: boolean;
  readonly nodeName?: string;
}

export interface InterruptionPorts {
  /** List the claims, stamp the cause (a metadata patch), drain (delete the claim; its finalizer drains). */
  readonly cluster: Pick<Cluster, 'listNodeClaims' | 'patchMetadata' | 'deleteNodeClaim'>;
  /**
   * One more early-drain step for the Node of an instance whose termination already started (its claim is
   * deleting or gone): a message handed back after its drain failed is retried for the drain, not taken as done
   * because the claim is no longer there. False when no such Node is in the view.
   */
  readonly drainLeaving?: (instance: (providerID: string | undefined) => boolean) => Promise<boolean>;
  readonly logger?: Logger;
  /** Records events best effort (events.ts); absent: none. */
  readonly publish?: (events: readonly ClusterEvent[]) => Promise<void>;
}

const refOf = (claim: NodeClaim): NodeClaimRef => ({
  name: claim.metadata.name,
  ...(claim.metadata.uid ? { uid: claim.metadata.uid } : {}),
  ...(claim.status?.providerID ? { providerID: claim.status.providerID } : {}),
  ...(claim.metadata.annotations ? { annotations: claim.metadata.annotations } : {}),
  deleting: claim.metadata.deletionTimestamp !== undefined,
  ...(claim.status?.nodeName ? { nodeName: claim.status.nodeName } : {}),
});

/** Partial success as counts: one failing claim does not stop the others. */
export interface InterruptionOutcome {
  readonly signals: number;
  readonly annotated: number;
  readonly drained: number;
  /** Signals that only inform (rebalance recommendations). */
  readonly noted: number;
  /** Signals for instances no NodeClaim owns (not ours, or already gone). */
  readonly unmatched: number;
  readonly failed: number;
  readonly errors: readonly { readonly claim: string; readonly error: string }[];
}

/** True when the claim's providerID names the signalled instance (aws:///zone/i-…, gce://project/zone/name). */
export function matchesInstance(providerID: string | undefined, signal: InterruptionSignal): boolean {
  if (!providerID) return false;
  if (signal.cloud === 'aws')
    return providerID.startsWith('aws://') && providerID.endsWith(`/${signal.instance}`);
  const parts = providerID.replace(/^gce:\/\//, '').split('/');
  return (
    providerID.startsWith('gce://') &&
    parts[2] === signal.instance &&
    (signal.zone === undefined || parts[1] === signal.zone)
  );
}

/** The first cause wins: a later state change must not overwrite the spot warning that explained it. */
function causeToStamp(claim: NodeClaimRef, cause: TerminationCause): TerminationCause | undefined {
  return claim.annotations?.[TERMINATION_CAUSE] ? undefined : cause;
}

export async function handleInterruptions(
  signals: readonly InterruptionSignal[],
  ports: InterruptionPorts,
): Promise<InterruptionOutcome> {
  const counts = { signals: signals.length, annotated: 0, drained: 0, noted: 0, unmatched: 0, failed: 0 };
  const errors: { claim: string; error: string }[] = [];
  if (signals.length === 0) return { ...counts, errors };
  // A local copy, updated as we act, so a second signal for the same claim sees the first one's effect.
  const claims = (await ports.cluster.listNodeClaims()).map(refOf);
  const fail = (name: string, err: unknown): void => {
    counts.failed += 1;
    errors.push({ claim: name, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  };
  // Instances drained in this batch: a second signal for one of them does not drain it twice over.
  const drainedNow = new Set<string>();
  /** One more drain step for an instance whose termination already started; a failure fails the signal. */
  const drainAgain = async (signal: InterruptionSignal): Promise<'drained' | 'none' | 'failed'> => {
    if (!ports.drainLeaving || drainedNow.has(signal.instance)) return 'none';
    drainedNow.add(signal.instance);
    try {
      return (await ports.drainLeaving((pid) => matchesInstance(pid, signal))) ? 'drained' : 'none';
    } catch (err) {
      fail(signal.instance, err);
      return 'failed';
    }
  };
  for (const signal of signals) {
    const index = claims.findIndex((c) => matchesInstance(c.providerID, signal));
    const claim = claims[index];
    if (!claim) {
      // No claim left: its termination may have started and its drain failed (a redelivered message).
      const again = signal.drain ? await drainAgain(signal) : 'none';
      if (again === 'drained') counts.drained += 1;
      else if (again === 'none') counts.unmatched += 1;
      continue;
    }
    if (!claim.deleting)
      await ports.publish?.(interruptionEvents(claim, signal.cause, signal.drain, signal.at));
    if (!signal.drain) {
      counts.noted += 1;
      ports.logger?.info('cloud recommends replacing an instance', {
        claim: claim.name,
        cause: signal.cause,
      });
      continue;
    }
    try {
      const cause = causeToStamp(claim, signal.cause);
      if (cause) {
        await ports.cluster.patchMetadata('NodeClaim', claim.name, {
          annotations: { [TERMINATION_CAUSE]: cause },
        });
        counts.annotated += 1;
        claims[index] = {
          ...claim,
          annotations: { ...claim.annotations, [TERMINATION_CAUSE]: cause },
        };
      }
      if (!claim.deleting) {
        await ports.cluster.deleteNodeClaim(claim.name, claim.uid ? { uid: claim.uid } : {});
        counts.drained += 1;
        claims[index] = { ...(claims[index] as NodeClaimRef), deleting: true };
        drainedNow.add(signal.instance);
      } else if ((await drainAgain(signal)) === 'drained') counts.drained += 1;
    } catch (err) {
      fail(claim.name, err);
    }
  }
  return { ...counts, errors };
}
