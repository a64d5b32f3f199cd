// The disruption functions i11b owns as the end-to-end tests run them (orchestrate, census, pricing), built
// the way their deps.ts build them but against the harness's servers, clock, logs and metrics; and a way to
// start a command without the admit function: the StartCommand use case, called as admission would call it.
import { randomUUID } from 'node:crypto';
import { createOrchestrateHandler } from '../../../functions/orchestrate/handler.ts';
import type { OrchestrateHandlerDeps } from '../../../functions/orchestrate/deps.ts';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { computeConsolidation } from '../../../shared/disruption/consolidation.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { toProposal, type Proposal } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { InstanceTypeCache } from '../../../shared/loop/instance-types.ts';
import { readLive, type LiveDeps } from '../../../shared/loop/live-state.ts';
import { fleetInstanceTypes } from '../../../shared/loop/prices.ts';
import { startCommand, type StartDeps } from '../../../shared/loop/start-command.ts';
import type { LaunchRequestPayload } from '../../../shared/loop/launch-request.ts';
import { ec2NodeClassSchema, gceNodeClassSchema } from '../../../shared/model/nodeclass.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import type { Cloud } from '../../../shared/model/labels.ts';
import type { CloudProvider } from '../../../shared/ports/cloud-provider/index.ts';
import type { Cluster } from '../../../shared/ports/cluster/index.ts';
import type { StateStore } from '../../../shared/ports/state-store/index.ts';
import type { Fence } from '../../../shared/ports/state-store/records.ts';
import type { E2eHarness } from './harness.ts';

const obs = (h: E2eHarness) => ({ logger: h.logger, metrics: h.metrics });
export const E2E_PASS_OPTIONS = passOptions({});

export interface OrchestrateOverrides {
  readonly cluster?: Cluster;
  readonly store?: StateStore;
  readonly providers?: Partial<Record<Cloud, CloudProvider>>;
  readonly replacementTimeoutMs?: number;
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
    },
    obs: obs(h),
  };
  return createOrchestrateHandler(() => Promise.resolve(deps));
}

/** Live state as a pass reads it, priced by both clouds' providers. */
export function liveDeps(h: E2eHarness): LiveDeps {
  const cache = new InstanceTypeCache({ aws: h.ec2Provider(), gcp: h.gceProvider() }, h.clock, 60_000);
  const cluster = h.cluster();
  return {
    store: h.store(),
    cluster,
    clock: h.clock,
    instanceTypes: () => fleetInstanceTypes({ cluster, instanceTypes: cache }),
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

/** What admission's launch step does: record the launch under the admission fence, invoke the launcher. */
function launcher(h: E2eHarness, fence: () => Fence, commandId: () => string) {
  return async (claim: NodeClaim): Promise<void> => {
    const cloud = claim.metadata.labels?.['kraftsman.dev/cloud'] === 'gcp' ? 'gcp' : 'aws';
    const ref = claim.spec.nodeClassRef;
    const raw = h.list(ref.kind).find((c) => c.metadata.name === ref.name);
    const nodeClass = (cloud === 'aws' ? ec2NodeClassSchema : gceNodeClassSchema).parse(raw);
    const payload: LaunchRequestPayload = {
      fence: fence(),
      nodeClass,
      claims: [claim.metadata.name],
      commandId: commandId(),
    };
    await h.invoker.invoke(cloud === 'aws' ? 'launch-aws' : 'launch-gcp', payload);
  };
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
  const store = h.store();
  const lock = await store.acquireLease({
    cluster: h.clusterName,
    name: 'admission',
    owner: `admit-${randomUUID()}`,
    ttlMs: 60_000,
  });
  const live = await readLive(liveDeps(h), h.clusterName, E2E_PASS_OPTIONS);
  let id = '';
  const deps: StartDeps = {
    store,
    cluster: h.cluster(),
    ...override,
    launch: launcher(
      h,
      () => lock,
      () => id,
    ),
    newId: () => (id = randomUUID().replace(/-/g, '').slice(0, 20)),
  };
  try {
    return { id: await startCommand(deps, lock, proposal, live.snapshot), proposal };
  } finally {
    await h.invoker.settled();
    await store.releaseLease(lock).catch(() => undefined);
  }
}
