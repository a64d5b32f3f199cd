// The admission use case (docs/mechanisms/batched-admission.md): under the admission lock, wait the settling
// delay once, then for each proposal in order re-read live state, re-validate, and only if still valid start
// the command before looking at the next, so each validation sees every earlier command's effects — carried
// forward in process and completed by consistent reads, since the open-commands index may lag
// (admission-view.ts). Runs on its own budget (settling delay + ~20 s per proposal); a later proposal starts
// only with a proposal's 20 s still left; what the budget leaves untried is reported.
import { admissionBudgetMs, mayStartNext, SETTLING_DELAY_MS } from '../disruption/admission-budget.ts';
import type { Proposal } from '../disruption/proposal.ts';
import type { PassOptions } from '../disruption/types.ts';
import { validateCommand, type Validation } from '../disruption/validation.ts';
import { replacementName } from '../disruption/replacement-claim.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { Lease } from '../ports/state-store/records.ts';
import { LockHeldError, StaleWriteError } from '../ports/state-store/errors.ts';
import { LOOP_METRICS, type AdmissionStage } from './disruption-metrics.ts';
import { CarriedCommands, completeOpenCommands } from './admission-view.ts';
import { logProposal } from './decision-log.ts';
import { launchingEvent } from './disruption-events.ts';
import { publishEvents } from './events.ts';
import { readLive, type LiveDeps } from './live-state.ts';
import { startCommand, StartCommandError, type StartDeps } from './start-command.ts';

export interface AdmitDeps extends LiveDeps, StartDeps {
  readonly metrics: Metrics;
  /** The decision log (decision-log.ts): each proposal admitted or rejected, with its stage. */
  readonly logger: Logger;
  /** The settling wait (a real sleep in Lambda, an injected clock in tests). */
  sleep(ms: number): Promise<void>;
  /** Waits between attempts at a held lock; without it a held lock fails at once (LockHeldError). */
  poll?(ms: number): Promise<void>;
}

export interface AdmitRequest {
  readonly cluster: string;
  /** Unique per attempt (request id + nonce), so a redelivered event never shares a live lock. */
  readonly owner: string;
  readonly proposals: readonly Proposal[];
  readonly options: PassOptions;
  readonly settlingDelayMs?: number;
  /** Caps the admission budget (the invocation's time left); never raises it. */
  readonly budgetMs?: number;
  /** How long a held lock (a crashed or overlapping admitter's) is waited for; 0 = not at all. */
  readonly lockWaitMs?: number;
  readonly lockPollMs?: number;
}

export interface AdmitResult {
  readonly admitted: readonly { readonly id: string; readonly proposal: Proposal }[];
  readonly rejected: readonly {
    readonly proposal: Proposal;
    readonly stage: AdmissionStage;
    readonly detail: string;
  }[];
  /** Proposals the admission budget left untried. */
  readonly expired: readonly Proposal[];
}

/** The admission budget with this settling delay: the delay once, plus ~20 s per proposal. */
export const admissionBudgetFor = (proposals: number, settlingDelayMs = SETTLING_DELAY_MS): number =>
  admissionBudgetMs(proposals) - SETTLING_DELAY_MS + settlingDelayMs;

export async function admit(deps: AdmitDeps, request: AdmitRequest): Promise<AdmitResult> {
  const settling = request.settlingDelayMs ?? SETTLING_DELAY_MS;
  const full = admissionBudgetFor(request.proposals.length, settling);
  const budget = Math.min(full, request.budgetMs ?? full);
  // The lease outlives the budget by a margin, so every fenced write of a slow last proposal still lands.
  const lock = await acquireLock(deps, request, budget + 30_000);
  try {
    return await admitUnderLock(deps, request, lock, settling, budget);
  } finally {
    await deps.store.releaseLease(lock).catch(() => undefined); // a lost lock has nothing to release
  }
}

async function acquireLock(deps: AdmitDeps, request: AdmitRequest, ttlMs: number): Promise<Lease> {
  const giveUpAt = deps.clock.now().getTime() + (request.lockWaitMs ?? 0);
  for (;;) {
    try {
      return await deps.store.acquireLease({
        cluster: request.cluster,
        name: 'admission',
        owner: request.owner,
        ttlMs,
      });
    } catch (error: unknown) {
      const waiting = error instanceof LockHeldError && deps.poll && deps.clock.now().getTime() < giveUpAt;
      if (!waiting) throw error;
      await deps.poll?.(request.lockPollMs ?? 1_000);
    }
  }
}

async function admitUnderLock(
  deps: AdmitDeps,
  request: AdmitRequest,
  lock: Lease,
  settling: number,
  budget: number,
): Promise<AdmitResult> {
  const started = deps.clock.now().getTime();
  await deps.sleep(settling); // once, not per proposal (docs/mechanisms/pass-reads.md: the validation that waits installs fresh caches)
  const admitted: AdmitResult['admitted'][number][] = [];
  const rejected: AdmitResult['rejected'][number][] = [];
  // Every command recorded here counts as open in the next validation, whatever the lagging index says.
  const carried = new CarriedCommands();
  for (const [i, proposal] of request.proposals.entries()) {
    if (!mayStartNext(i, deps.clock.now().getTime() - started, budget)) {
      const expired = request.proposals.slice(i);
      for (const p of expired) {
        deps.metrics.count(LOOP_METRICS.admissionFailuresTotal, 1, { stage: 'expired', method: p.method });
        logProposal(deps.logger, 'rejected', p, {
          stage: 'expired',
          detail: 'the admission budget ran out first',
        });
      }
      return { admitted, rejected, expired };
    }
    // Fresh pass caches and live state for every proposal: it must see what the ones before it started.
    const live = await readLive(deps, request.cluster, request.options, undefined, (state, snapshot) =>
      completeOpenCommands(deps.store, request.cluster, state, snapshot, carried, proposal.candidates),
    );
    const validation = validateCommand(live.inputs, {
      method: proposal.method,
      candidates: proposal.candidates.map((name) => ({ name })),
      replacements: proposal.replacements,
    });
    if (!validation.valid) {
      rejected.push(refusal(deps.metrics, proposal, validation));
      logRejected(deps.logger, rejected[rejected.length - 1]);
      continue;
    }
    try {
      const id = await startCommand(deps, lock, proposal, live.snapshot, (r) => carried.add(r));
      admitted.push({ id, proposal });
      deps.metrics.count(LOOP_METRICS.commandsAdmittedTotal, 1, labels(proposal));
      logProposal(deps.logger, 'admitted', proposal, { snapshot: live.snapshot, commandId: id });
      await publishEvents(deps, launchingEvents(proposal, id, deps.clock.now()));
    } catch (error: unknown) {
      if (!(error instanceof StartCommandError)) throw error;
      deps.metrics.count(LOOP_METRICS.admissionFailuresTotal, 1, {
        stage: error.stage,
        method: proposal.method,
      });
      // A lost lock ends admission: whoever holds it now admits from live state of its own.
      if (error.cause instanceof StaleWriteError) throw error;
      rejected.push({ proposal, stage: error.stage, detail: error.message });
      logRejected(deps.logger, rejected[rejected.length - 1]);
    }
  }
  return { admitted, rejected, expired: [] };
}

const logRejected = (logger: Logger, r: AdmitResult['rejected'][number] | undefined): void => {
  if (r) logProposal(logger, 'rejected', r.proposal, { stage: r.stage, detail: r.detail });
};

/** Karpenter's DisruptionLaunching on each replacement claim (queue.go), named as startCommand named them. */
const launchingEvents = (p: Proposal, id: string, at: Date) =>
  p.replacements.map((r, i) =>
    launchingEvent({ kind: 'NodeClaim', name: replacementName(r.nodePool, id, i) }, p.reason, at),
  );

const labels = (p: Proposal) => ({
  decision: p.replacements.length ? 'replace' : 'delete',
  method: p.method,
});

function refusal(metrics: Metrics, proposal: Proposal, v: Extract<Validation, { valid: false }>) {
  const stage: AdmissionStage = v.failure === 'budget' ? 'budget' : 'validation';
  metrics.count(LOOP_METRICS.admissionFailuresTotal, 1, { stage, method: proposal.method });
  return { proposal, stage, detail: `${v.failure}: ${v.detail}` };
}
