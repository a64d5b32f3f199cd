// The async invoke payload from consolidate to admit (docs/mechanisms/batched-admission.md): the cluster, the
// pass that held the proposals, and the proposals in the order they must be admitted. Both ends build or
// parse it here, validated and bounded (at most MAX_PROPOSALS, at most MAX_ADMIT_PAYLOAD_BYTES serialized,
// under Lambda's 256 KB async limit), so a payload the event limit would refuse fails the pass, not admit.
// It carries its creation time: admit refuses a payload a newer pass has superseded (docs/deploy.md).
import { z } from 'zod';
import { admissionBudgetMs, SETTLING_DELAY_MS } from '../disruption/admission-budget.ts';
import { MAX_PROPOSALS_BYTES, proposalsSchema, type Proposal } from '../disruption/proposal.ts';
import { formatZodIssues } from '../model/zod-issues.ts';
import type { Clock } from '../ports/clock.ts';
import type { Invoker } from '../ports/invoker.ts';
import { storeName } from '../ports/state-store/records.ts';
import { refuse, type RefusalDeps } from './refusals.ts';

/** The proposals' bound plus room for the envelope: still well under 256 KB. */
export const MAX_ADMIT_PAYLOAD_BYTES = MAX_PROPOSALS_BYTES + 4_096;

export const admitPayloadSchema = z.object({
  cluster: storeName,
  /** The consolidate run (its scheduled event's id) that held the proposals: a log key, not a lease. */
  passId: z.string().min(1).max(256),
  /** When consolidate sent it (epoch ms, consolidate's clock): admit judges the payload's age by it. */
  createdAt: z.number().int().positive(),
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

/** consolidate's hand-off: one async invoke of admit carrying the pass's proposals, in order, stamped now. */
export function handOffToAdmit(invoker: Invoker, clock: Clock, cluster: string, passId: string) {
  return async (proposals: readonly Proposal[]): Promise<void> => {
    const createdAt = clock.now().getTime();
    const payload = parseAdmitPayload({ cluster, passId, createdAt, proposals }, 'consolidate hand-off');
    await invoker.invoke('admit', payload);
  };
}

/** consolidate's schedule (serverless.yml, `rate(1 minute)`; the template test holds the two together). */
export const PASS_INTERVAL_MS = 60_000;

/**
 * The oldest payload admit still acts on: one pass interval (by then the next pass has proposed from fresher
 * state) plus the admission budget of its proposals (what admitting it would take). Anything older sat in
 * Lambda's async queue (throttled behind another admission, retried) and describes a cluster that is gone:
 * admitting it could drain a node on facts minutes old.
 */
export const maxPayloadAgeMs = (proposals: number, settlingDelayMs = SETTLING_DELAY_MS): number =>
  PASS_INTERVAL_MS + admissionBudgetMs(proposals) - SETTLING_DELAY_MS + settlingDelayMs;

/**
 * Refuses a payload older than maxPayloadAgeMs: every proposal is counted and logged as a refused drain
 * (reason `stale-payload`, docs/mechanisms/identity.md). Returns the age when refused, undefined when fresh.
 */
export async function refuseStalePayload(
  deps: RefusalDeps & { readonly clock: Clock },
  payload: AdmitPayload,
  settlingDelayMs?: number,
): Promise<number | undefined> {
  const ageMs = deps.clock.now().getTime() - payload.createdAt;
  const maxMs = maxPayloadAgeMs(payload.proposals.length, settlingDelayMs);
  if (ageMs <= maxMs) return undefined;
  for (const p of payload.proposals)
    await refuse(deps, {
      action: 'drain',
      reason: 'stale-payload',
      message: `proposal ${p.method} of ${p.candidates.join(', ')} from pass ${payload.passId} is ${Math.round(ageMs / 1000)} s old, over the ${Math.round(maxMs / 1000)} s a payload may wait; the next pass proposes from live state`,
    });
  return ageMs;
}
