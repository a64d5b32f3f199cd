// The async invoke payload from consolidate to admit (docs/mechanisms/batched-admission.md): the cluster, the
// pass that held the proposals, and the proposals in the order they must be admitted. Both ends build or
// parse it here, validated and bounded (at most MAX_PROPOSALS, at most MAX_ADMIT_PAYLOAD_BYTES serialized,
// under Lambda's 256 KB async limit), so a payload the event limit would refuse fails the pass, not admit.
import { z } from 'zod';
import { MAX_PROPOSALS_BYTES, proposalsSchema, type Proposal } from '../disruption/proposal.ts';
import { formatZodIssues } from '../model/zod-issues.ts';
import type { Invoker } from '../ports/invoker.ts';
import { storeName } from '../ports/state-store/records.ts';

/** The proposals' bound plus room for the envelope: still well under 256 KB. */
export const MAX_ADMIT_PAYLOAD_BYTES = MAX_PROPOSALS_BYTES + 4_096;

export const admitPayloadSchema = z.object({
  cluster: storeName,
  /** The consolidate run (its scheduled event's id) that held the proposals: a log key, not a lease. */
  passId: z.string().min(1).max(256),
  proposals: proposalsSchema,
});
export type AdmitPayload = z.infer<typeof admitPayloadSchema>;

/** A payload refused at either end: the message names every bad field (or the size over the bound). */
export class AdmitPayloadError extends Error {
  override readonly name = 'AdmitPayloadError';
}

/** Parses a payload at either end (consolidate before sending, admit on receipt). */
export function parseAdmitPayload(value: unknown, where = 'admit payload'): AdmitPayload {
  const parsed = admitPayloadSchema.safeParse(value);
  if (!parsed.success)
    throw new AdmitPayloadError(formatZodIssues(parsed.error, where), { cause: parsed.error });
  const bytes = Buffer.byteLength(JSON.stringify(parsed.data));
  if (bytes > MAX_ADMIT_PAYLOAD_BYTES)
    throw new AdmitPayloadError(`${where}: ${bytes} bytes exceed the ${MAX_ADMIT_PAYLOAD_BYTES}-byte bound`);
  return parsed.data;
}

/** consolidate's hand-off: one async invoke of admit carrying the pass's proposals, in order. */
export function handOffToAdmit(invoker: Invoker, cluster: string, passId: string) {
  return async (proposals: readonly Proposal[]): Promise<void> => {
    const payload = parseAdmitPayload({ cluster, passId, proposals }, 'consolidate hand-off');
    await invoker.invoke('admit', payload);
  };
}
