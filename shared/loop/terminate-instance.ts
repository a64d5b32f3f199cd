// Terminating one cloud instance, as every terminate path of the loop does it (orchestration, termination, garbage
// collection): the adapter proves the instance is this deployment's (and the expected claim's) before it acts, and
// a refusal is made visible here — metric, log, event — and reported as such, never retried as if transient
// (docs/mechanisms/identity.md#instances).
import type { NodeClaimName } from '../model/names.ts';
import { providerId, type CloudProvider } from '../ports/cloud-provider/index.ts';
import { cloudErrorOf, ownershipErrorOf } from '../ports/cloud-provider/errors.ts';
import type { InvolvedObject } from '../ports/cluster/index.ts';
import { refuse, type RefusalDeps } from './refusals.ts';

/** `gone`: the cloud no longer has it (a delete already happened); `refused`: it is not ours to terminate. */
export type TerminateOutcome = 'terminated' | 'gone' | 'refused';

export interface TerminateSubject {
  readonly providerId: string;
  /** The claim the caller recorded for this instance: the instance's claim tag must name it. */
  readonly nodeClaim?: NodeClaimName;
  /** The Node or NodeClaim the termination is for: a refusal is recorded on it as an event. */
  readonly object?: InvolvedObject;
}

export async function terminateInstance(
  deps: RefusalDeps,
  provider: CloudProvider,
  subject: TerminateSubject,
): Promise<TerminateOutcome> {
  const id = subject.providerId;
  try {
    await provider.delete(providerId(id), subject.nodeClaim ? { nodeClaim: subject.nodeClaim } : undefined);
    return 'terminated';
  } catch (err: unknown) {
    if (cloudErrorOf(err)?.name === 'InstanceNotFoundError') return 'gone';
    const refused = ownershipErrorOf(err);
    if (!refused) throw err;
    await refuse(deps, {
      action: 'terminate',
      reason: refused.reason,
      message: refused.message,
      providerId: id,
      ...(subject.object ? { object: subject.object } : {}),
    });
    return 'refused';
  }
}

/**
 * Thrown by a terminate path that cannot go on once its instance was refused (its Node or NodeClaim must not be
 * deleted as if the instance were gone). The refusal is already counted, logged and recorded.
 */
export class TerminationRefusedError extends Error {
  override name = 'TerminationRefusedError' as const;
  constructor(readonly providerId: string) {
    super(
      `terminating ${providerId} was refused: it is not this deployment's instance (or not the one expected)`,
    );
  }
}

/** The Node or NodeClaim a refusal's event goes on. */
export function involvedOf(
  kind: 'Node' | 'NodeClaim',
  o: { readonly metadata: { readonly name: string; readonly uid?: string | undefined } },
): InvolvedObject {
  return { kind, name: o.metadata.name, ...(o.metadata.uid ? { uid: o.metadata.uid } : {}) };
}
