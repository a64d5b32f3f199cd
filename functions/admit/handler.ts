// admit (invoked asynchronously by consolidate; reserved concurrency 1): validates the payload, then under
// the admission lock waits the settling delay once and admits the proposals in order, each re-validated
// against live state (docs/mechanisms/batched-admission.md), within the admission budget and the invocation.
import { parseAdmitPayload, refuseStalePayload } from '../../shared/loop/admit-payload.ts';
import { admissionBudgetFor, admit } from '../../shared/loop/admit.ts';
import { LOOP_METRICS, type AdmissionStage } from '../../shared/loop/disruption-metrics.ts';
import { leaseOwner } from '../../shared/loop/with-lease.ts';
import { LockHeldError } from '../../shared/ports/state-store/errors.ts';
import { InvalidEventError, invocation, parseContext, remainingMs } from '../compose/index.ts';
import { admitDeps, type AdmitHandlerDeps } from './deps.ts';

export type AdmitOutcome =
  | {
      readonly outcome: 'ran';
      readonly admitted: readonly string[];
      readonly rejected: readonly {
        readonly candidates: readonly string[];
        readonly stage: AdmissionStage;
      }[];
      readonly expired: number;
    }
  | { readonly outcome: 'held'; readonly holder: string }
  /** The payload waited longer than a pass interval plus its admission budget: nothing was admitted. */
  | { readonly outcome: 'stale'; readonly ageMs: number };

export function createAdmitHandler(deps: () => Promise<AdmitHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<AdmitOutcome> => {
    const payload = parseAdmitPayload(event);
    const ctx = parseContext(context);
    const d = await deps();
    const { loop, settings } = d;
    if (payload.cluster !== settings.clusterName)
      throw new InvalidEventError(
        `admit payload: cluster: ${payload.cluster} is not this function's cluster ${settings.clusterName}`,
      );
    const budget = admissionBudgetFor(payload.proposals.length, settings.settlingDelayMs);
    const left = remainingMs(ctx, budget + settings.lockWaitMs);
    // Waiting for the lock spends only what the budget does not need; the budget never outlives the call.
    const lockWaitMs = Math.min(settings.lockWaitMs, Math.max(0, left - budget));
    return invocation(d.obs, { requestId: ctx.awsRequestId, passId: payload.passId }, async () => {
      const refusal = { ...loop, logger: d.obs.logger };
      const ageMs = await refuseStalePayload(refusal, payload, settings.settlingDelayMs);
      if (ageMs !== undefined) return { outcome: 'stale', ageMs };
      try {
        const r = await admit(loop, {
          cluster: settings.clusterName,
          owner: leaseOwner(ctx.awsRequestId, loop.nonce()),
          proposals: payload.proposals,
          options: settings.options,
          settlingDelayMs: settings.settlingDelayMs,
          budgetMs: left - lockWaitMs,
          lockWaitMs,
          lockPollMs: settings.lockPollMs,
        });
        return {
          outcome: 'ran',
          admitted: r.admitted.map((a) => a.id),
          rejected: r.rejected.map((x) => ({ candidates: x.proposal.candidates, stage: x.stage })),
          expired: r.expired.length,
        };
      } catch (err: unknown) {
        if (!(err instanceof LockHeldError)) throw err;
        // Dropped, not retried: the proposals are stale by now and the next pass proposes from live state.
        for (const p of payload.proposals)
          loop.metrics.count(LOOP_METRICS.admissionFailuresTotal, 1, { stage: 'lock', method: p.method });
        d.obs.logger.warn('admission lock stayed held; proposals dropped', {
          holder: err.holder.owner,
          proposals: payload.proposals.length,
        });
        return { outcome: 'held', holder: err.holder.owner };
      }
    });
  };
}

export const handler = createAdmitHandler(admitDeps);
