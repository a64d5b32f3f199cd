// The provision use case: under the provisioning lease, watch pending pods for most of the invocation and
// batch them as Karpenter's provisioner does — a batch opens at the first new pending pod and closes after
// `idleMs` without another (1 s) or `maxMs` after it opened (10 s) — so a pod waits seconds for its NodeClaim,
// not a schedule tick. The schedule restarts the loop; an overlapping start finds the lease held and exits.
import { pendingDemand } from '../provisioning/demand.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { leavingOf } from './leaving-pods.ts';
import type { Nomination, PassState } from '../ports/state-store/records.ts';
import type { Timer } from '../ports/timer.ts';
import {
  podIdentity,
  runBatch,
  type BatchDeps,
  type BatchResult,
  type BatchSettings,
} from './provision-batch.ts';
import { answerRequests, requestsDue, type RequestTotals } from './provisioning-requests.ts';
import { withLease, type HeldLease, type LeaseDeps } from './with-lease.ts';

export interface ProvisionDeps extends BatchDeps, LeaseDeps {
  readonly timer: Timer;
}

export interface WatchSettings {
  /** How long this invocation watches (e.g. 14 of a 15-minute Lambda); 0 runs exactly one batch. */
  readonly windowMs: number;
  readonly idleMs: number;
  readonly maxMs: number;
  /** How often the cluster is re-read (a warm watch catch-up) while waiting. */
  readonly pollMs: number;
  /** A pod no batch could place is tried again after this long, or at once when something else changes. */
  readonly retryMs: number;
  /** Consecutive failed batches after which the run fails (and the schedule starts a fresh one). */
  readonly maxFailures: number;
}

export interface ProvisionRequest {
  readonly cluster: string;
  readonly owner: string;
  readonly runId?: string;
  readonly leaseTtlMs: number;
  readonly watch: WatchSettings;
  readonly batch: BatchSettings;
}

export interface ProvisionTotals {
  readonly batches: number;
  readonly failedBatches: number;
  readonly claimsCreated: number;
  readonly launchesInvoked: number;
  readonly unschedulable: number;
  readonly verdicts: number;
  /** ProvisioningRequests answered (docs/mechanisms/provisioning-requests.md, "In the loop"). */
  readonly requestsAnswered: number;
}

export type ProvisionResult =
  | ({ readonly outcome: 'ran'; readonly leaseLost: boolean } & ProvisionTotals)
  | { readonly outcome: 'held'; readonly holder: string };

export async function provision(deps: ProvisionDeps, request: ProvisionRequest): Promise<ProvisionResult> {
  const run = await withLease(
    deps,
    {
      cluster: request.cluster,
      name: 'provisioning',
      owner: request.owner,
      ttlMs: request.leaseTtlMs,
      ...(request.runId ? { runId: request.runId } : {}),
    },
    (lease) => new Watch(deps, request, lease).run(),
  );
  if (run.outcome === 'held') return { outcome: 'held', holder: run.holder.owner };
  return { outcome: 'ran', leaseLost: run.lost, ...run.value };
}

class Watch {
  private readonly handled = new Map<string, number>();
  private nominations: Map<string, Nomination> = new Map();
  /** The open commands as last read: their candidates' pods are demand too (docs/mechanisms/provisioning-demand.md). */
  private commands: PassState['openCommands'] = [];
  private readonly end: number;
  private totals = {
    batches: 0,
    failedBatches: 0,
    claimsCreated: 0,
    launchesInvoked: 0,
    unschedulable: 0,
    verdicts: 0,
    requestsAnswered: 0,
  };
  /** Requests of another class whose event this container wrote (once each, not every pass). */
  private readonly evented = new Set<string>();

  constructor(
    private readonly deps: ProvisionDeps,
    private readonly request: ProvisionRequest,
    private readonly lease: HeldLease,
  ) {
    this.end = deps.clock.now().getTime() + request.watch.windowMs;
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }

  async run(): Promise<ProvisionTotals> {
    const state = await this.deps.store.loadPassState(this.request.cluster);
    this.nominations = new Map(state.nominations);
    this.commands = state.openCommands;
    let failures = 0;
    do {
      const objects = await this.nextBatch();
      if (!objects) break;
      try {
        this.record(await runBatch(this.deps, this.request.batch, this.lease.fence, objects));
        // the requests after the ordinary pending pods, as Cluster Autoscaler answers them in their own iterations
        this.recordRequests(
          await answerRequests(this.deps, this.request.batch, this.lease.fence, this.evented),
        );
        failures = 0;
      } catch (err: unknown) {
        failures += 1;
        this.totals.failedBatches += 1;
        this.deps.logger.error('provisioning batch failed', { error: describe(err), failures });
        if (failures >= this.request.watch.maxFailures || this.request.watch.windowMs === 0) throw err;
        await this.deps.timer.sleep(this.request.watch.idleMs, this.lease.signal);
      }
    } while (this.now() < this.end && !this.lease.signal.aborted);
    return this.totals;
  }

  /** Waits for fresh demand, then holds the batch open while more keeps arriving; undefined at the end. */
  private async nextBatch(): Promise<ClusterObjects | undefined> {
    const { idleMs, maxMs, pollMs, windowMs } = this.request.watch;
    let objects = (await this.deps.cluster.readSnapshot()).objects;
    let fresh = this.fresh(objects);
    if (windowMs === 0) return objects;
    while (fresh.size === 0) {
      if (this.now() >= this.end || this.lease.signal.aborted) return undefined;
      await this.deps.timer.sleep(Math.min(pollMs, this.end - this.now()), this.lease.signal);
      objects = (await this.deps.cluster.readSnapshot()).objects;
      fresh = this.fresh(objects);
    }
    const opened = this.now();
    let last = opened;
    for (;;) {
      const left = Math.min(last + idleMs, opened + maxMs, this.end) - this.now();
      if (left <= 0 || this.lease.signal.aborted) return objects;
      await this.deps.timer.sleep(Math.min(pollMs, left), this.lease.signal);
      objects = (await this.deps.cluster.readSnapshot()).objects;
      const now = this.fresh(objects);
      // The idle timer restarts on every new pod, as Karpenter's batcher restarts it on every trigger.
      for (const k of now) if (!fresh.has(k)) last = this.now();
      fresh = now;
    }
  }

  /** Demand pods not tried recently: new pods, and pods whose claim went away (its nomination is void). */
  private fresh(objects: ClusterObjects): Set<string> {
    const now = this.deps.clock.now();
    const leaving = leavingOf(objects, { openCommands: this.commands }, now);
    const demand = pendingDemand(objects, this.nominations, now, !this.request.batch.upstream, leaving);
    const out = new Set<string>();
    for (const p of demand.pods) {
      const at = this.handled.get(podIdentity(p));
      if (at === undefined || now.getTime() - at >= this.request.watch.retryMs) out.add(podIdentity(p));
    }
    if (!this.request.batch.upstream)
      for (const key of requestsDue(objects, now, this.evented)) out.add(`request:${key}`);
    return out;
  }

  private recordRequests(r: RequestTotals): void {
    const t = this.totals;
    this.totals = {
      ...t,
      claimsCreated: t.claimsCreated + r.claimsCreated,
      launchesInvoked: t.launchesInvoked + r.launchesInvoked,
      requestsAnswered: t.requestsAnswered + r.answered,
    };
  }

  private record(r: BatchResult): void {
    const t = this.totals;
    this.totals = {
      ...t,
      batches: t.batches + 1,
      claimsCreated: t.claimsCreated + r.claimsCreated,
      launchesInvoked: t.launchesInvoked + r.launchesInvoked,
      unschedulable: t.unschedulable + r.unschedulable,
      verdicts: t.verdicts + r.verdicts,
    };
    const now = this.now();
    for (const n of r.nominations) this.nominations.set(n.podKey, n);
    this.commands = r.openCommands;
    // Pods that got a claim leave the demand through their nomination; if the claim goes away (a launch
    // that found no capacity deletes it) they are fresh again at once.
    for (const id of r.withoutClaim) this.handled.set(id, now);
  }
}

const describe = (err: unknown): string =>
  err instanceof Error ? `${err.name}: ${err.message}` : String(err);
