// The disruption functions i11b owns as the end-to-end tests run them (orchestrate, census, pricing), built
// the way their deps.ts build them but against the harness's servers, clock, logs and metrics; and a way to
// start a command without the admit function: the StartCommand use case, called as admission would call it.
import { randomUUID } from 'node:crypto';
import { commandIds, launchThrough } from '../../../functions/admit/deps.ts';
import { createOrchestrateHandler } from '../../../functions/orchestrate/handler.ts';
import type { OrchestrateHandlerDeps } from '../../../functions/orchestrate/deps.ts';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { computeConsolidation } from '../../../shared/disruption/consolidation.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { toProposal, type Proposal } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { InstanceTypeCache } from '../../../shared/loop/instance-types.ts';
import { readLive, type LiveDeps } from '../../../shared/loop/live-state.ts';
import { poolInstanceTypes } from '../../../shared/loop/pool-instance-types.ts';
import { startCommand, type StartDeps } from '../../../shared/loop/start-command.ts';
import type { Cloud } from '../../../shared/model/labels.ts';
import type { CloudProvider } from '../../../shared/ports/cloud-provider/index.ts';
import type { Cluster } from '../../../shared/ports/cluster/index.ts';
import type { StateStore } from '../../../shared/ports/state-store/index.ts';
import type { E2eHarness } from './harness.ts';

const obs = (h: E2eHarness) => ({ logger: h.logger, metrics: h.metrics });
export const E2E_PASS_OPTIONS = passOptions({});

export interface OrchestrateOverrides {
  readonly cluster?: Cluster;
  readonly store?: StateStore;
  readonly providers?: Partial<Record<Cloud, CloudProvider>>;
  readonly replacementTimeoutMs?: number;
  readonly replacementBackoffMs?: number;
}

/** One orchestrate container; `overrides` put a fault in front of one of its clients. */
export function orchestrateHandler(h: E2eHarness, o: OrchestrateOverrides = {}) {
  const deps: OrchestrateHandlerDeps = {
    loop: {
      cluster: o.cluster ?? h.cluster(),
      store: o.store ?? h.store(),
      providers: new Map<Cloud, CloudProvider>([
        ['aws', o.providers?.aws ?? h.ec2Provider()],
        ['gcp', o.providers?.gcp ?? h.gceProvider()],
      ]),
      clock: h.clock,
      timer: h.timer,
      nonce: () => randomUUID(),
      ...obs(h),
    },
    settings: {
      clusterName: h.clusterName,
      leaseTtlMs: 120_000,
      replacementTimeoutMs: o.replacementTimeoutMs ?? 15 * 60_000,
      admissionGraceMs: 10 * 60_000,
      replacementBackoffMs: o.replacementBackoffMs ?? 5 * 60_000,
    },
    obs: obs(h),
  };
  return createOrchestrateHandler(() => Promise.resolve(deps));
}

const warmLive = new WeakMap<E2eHarness, LiveDeps>();

/** Live state as a pass reads it, priced by both clouds' providers (one warm container per harness). */
export function liveDeps(h: E2eHarness): LiveDeps {
  const found = warmLive.get(h) ?? coldLiveDeps(h);
  warmLive.set(h, found);
  return found;
}

function coldLiveDeps(h: E2eHarness): LiveDeps {
  const cache = new InstanceTypeCache({ aws: h.ec2Provider(), gcp: h.gceProvider() }, h.clock, 60_000);
  return {
    store: h.store(),
    cluster: h.cluster(),
    clock: h.clock,
    instanceTypes: (objects) => poolInstanceTypes(cache, objects),
  };
}

/** The single-node consolidation proposal for `candidate`, computed by the core from live state. */
export async function proposalFor(h: E2eHarness, candidate: string): Promise<Proposal> {
  const live = await readLive(liveDeps(h), h.clusterName, E2E_PASS_OPTIONS);
  const ctx = passContext(live.snapshot, live.inputs.now, E2E_PASS_OPTIONS);
  const set = buildCandidates({ snapshot: live.snapshot, pdbs: ctx.pdbs(), now: live.inputs.now });
  const c = set.candidates.find((x) => x.name === candidate);
  if (!c) throw new Error(`${candidate} is no candidate: ${JSON.stringify(set.skipped)}`);
  const outcome = computeConsolidation(ctx, 'single-node-consolidation', [c]);
  if (outcome.kind !== 'command') throw new Error(`no command for ${candidate}: ${outcome.detail}`);
  return toProposal(outcome.command);
}

export interface Started {
  readonly id: string;
  readonly proposal: Proposal;
}

/** Starts `proposal` as admission would (under the admission lock), then waits for its launches. */
export async function startCommandNow(
  h: E2eHarness,
  proposal: Proposal,
  override: Partial<Pick<StartDeps, 'store' | 'cluster'>> = {},
): Promise<Started> {
  const store = override.store ?? h.store();
  const lock = await store.acquireLease({
    cluster: h.clusterName,
    name: 'admission',
    owner: `admit-${randomUUID()}`,
    ttlMs: 60_000,
  });
  const live = await readLive(liveDeps(h), h.clusterName, E2E_PASS_OPTIONS);
  const deps: StartDeps = {
    store,
    cluster: override.cluster ?? h.cluster(),
    launch: launchThrough(h.invoker),
    newId: commandIds(() => randomUUID()),
    clock: h.clock,
  };
  try {
    return { id: await startCommand(deps, lock, proposal, live.snapshot), proposal };
  } finally {
    await h.invoker.settled();
    await store.releaseLease(lock).catch(() => undefined);
  }
}
