// The AWS provider's interruption events (karpenter-provider-aws pkg/controllers/interruption/events), on the
// NodeClaim and its Node: what the cloud said, then `TerminatingOnInterruption` when kraftsman drains for it.
// Compute Engine's preemption has no Karpenter wording: it reads as a spot interruption does.
import type { TerminationCause } from '../model/labels.ts';
import type { ClusterEvent, InvolvedObject } from '../ports/cluster/index.ts';

const WORDING: Record<TerminationCause, { type: 'Normal' | 'Warning'; reason: string; message: string }> = {
  'spot-interruption': {
    type: 'Warning',
    reason: 'SpotInterrupted',
    message: 'Spot interruption warning was triggered',
  },
  preempted: { type: 'Warning', reason: 'SpotInterrupted', message: 'Compute Engine preempted the instance' },
  'rebalance-recommendation': {
    type: 'Normal',
    reason: 'SpotRebalanceRecommendation',
    message: 'Spot rebalance recommendation was triggered',
  },
  'instance-stopped': { type: 'Warning', reason: 'InstanceStopping', message: 'Instance is stopping' },
  'instance-terminated': {
    type: 'Warning',
    reason: 'InstanceTerminating',
    message: 'Instance is terminating',
  },
  'scheduled-maintenance': {
    type: 'Warning',
    reason: 'InstanceUnhealthy',
    message: 'An unhealthy warning was triggered for the instance',
  },
};

export interface InterruptedClaim {
  readonly name: string;
  readonly uid?: string;
  readonly nodeName?: string;
}

export function interruptionEvents(
  claim: InterruptedClaim,
  cause: TerminationCause,
  drain: boolean,
  at: Date,
): ClusterEvent[] {
  const objects: InvolvedObject[] = [
    { kind: 'NodeClaim', name: claim.name, ...(claim.uid ? { uid: claim.uid } : {}) },
    ...(claim.nodeName ? [{ kind: 'Node' as const, name: claim.nodeName }] : []),
  ];
  const w = WORDING[cause];
  const out: ClusterEvent[] = objects.map((involved) => ({
    involved,
    ...w,
    at,
    dedupeValues: [involved.uid ?? `${involved.kind}/${involved.name}`],
  }));
  if (drain)
    for (const involved of objects)
      out.push({
        involved,
        type: 'Warning',
        reason: 'TerminatingOnInterruption',
        message: `Interruption triggered termination for the ${involved.kind}`,
        at,
        dedupeValues: [involved.uid ?? `${involved.kind}/${involved.name}`],
      });
  return out;
}
