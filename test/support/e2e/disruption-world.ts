// A disruption scenario per test in one shared harness: each gets its own NodePool, so its pods, candidate
// and replacement never mix with another test's. The candidate is a g5.12xlarge whose 4-GPU job finished,
// left with CPU pods a g5.xlarge can hold; the invariants say what no crash may leave behind.
import { expect } from 'vitest';
import { refreshDisruptionBudgets } from '../../../local/kube-api/alive/disruption-budgets.ts';
import { OPEN_COMMAND_STATUSES } from '../../../shared/ports/state-store/command-states.ts';
import type { CommandRecord } from '../../../shared/ports/state-store/records.ts';
import { Closer, buildCluster, buildEc2Provider, buildStateStore } from '../../../functions/compose/index.ts';
import { liveEc2Prices } from '../../../functions/compose/price-sources.ts';
import { LOCAL_CREDENTIALS } from '../dynamodb/credentials.ts';
import { startCrashableContainer } from './crash-proxy.ts';
import { nodePool, pod } from './fixtures.ts';
import { lifecycleHandler, provisionHandler } from './functions.ts';
import type { E2eHarness } from './harness.ts';
import { lambdaContext, scheduledEvent } from './lambda-events.ts';
import { orchestrateHandler } from './orchestration-handlers.ts';

export const DISRUPTION_TYPES = ['g5.xlarge', 'g5.12xlarge'];
const DISRUPTED = 'karpenter.sh/disrupted';
type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

export interface Scenario {
  readonly pool: string;
  readonly app: string;
  readonly candidate: string;
  readonly instanceId: string;
  readonly pods: number;
}

const spec = <T>(o: Obj): T => (o.spec ?? {}) as T;
const labels = (o: Obj): Record<string, string> => (o.metadata.labels ?? {}) as Record<string, string>;
export const providerIdOf = (o: Obj): string =>
  spec<{ providerID?: string }>(o).providerID ??
  (o.status as { providerID?: string } | undefined)?.providerID ??
  '';
export const nodesOf = (h: E2eHarness, pool: string) =>
  h.list('Node').filter((n) => labels(n)['karpenter.sh/nodepool'] === pool);
export const podsOf = (h: E2eHarness, app: string) => h.list('Pod').filter((p) => labels(p)['app'] === app);
export const nodeNameOf = (p: Obj): string | undefined => spec<{ nodeName?: string }>(p).nodeName;
/** Instances not on their way out (TerminateInstances answers shutting-down; terminated follows). */
export const liveInstances = (h: E2eHarness) =>
  [...h.ec2.world.instances.values()].filter((i) => i.state === 'pending' || i.state === 'running');

/** Warm containers, one per function and harness, as Lambda reuses a container between scheduled runs. */
const warm = new WeakMap<E2eHarness, ReturnType<typeof containers>>();
const containers = (h: E2eHarness) => ({
  provision: provisionHandler(h),
  lifecycle: lifecycleHandler(h),
  orchestrate: orchestrateHandler(h),
});
const handlers = (h: E2eHarness) => {
  const found = warm.get(h) ?? containers(h);
  warm.set(h, found);
  return found;
};

export async function provision(h: E2eHarness): Promise<void> {
  await handlers(h).provision(scheduledEvent(h.clock), lambdaContext('provision'));
  await h.invoker.settled();
}
export const lifecycle = (h: E2eHarness) =>
  handlers(h).lifecycle(scheduledEvent(h.clock), lambdaContext('lifecycle'));
export const orchestrate = (h: E2eHarness) =>
  handlers(h).orchestrate(scheduledEvent(h.clock), lambdaContext('orchestrate'));

const initialized = (c: Obj): boolean =>
  ((c.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (x) => x.type === 'Initialized' && x.status === 'True',
  );

/** Registers and initializes every Node that booted (lifecycle's two steps), when one has not been yet. */
export async function initializeNodes(h: E2eHarness): Promise<void> {
  for (let i = 0; i < 2 && h.list('NodeClaim').some((c) => !initialized(c)); i++) await lifecycle(h);
}

export async function openCommands(h: E2eHarness): Promise<CommandRecord[]> {
  const store = h.store();
  const all = await Promise.all(
    OPEN_COMMAND_STATUSES.map((s) => store.listCommandsByStatus(h.clusterName, s)),
  );
  return all.flat();
}

/** A fresh NodePool `tag` and its underused candidate with `pods` CPU pods (owned by a ReplicaSet). */
export async function underusedNode(h: E2eHarness, tag: string, pods = 2): Promise<Scenario> {
  const pool = `pool-${tag}`;
  const app = `${tag}-keep`;
  const onPool = { nodeSelector: { 'karpenter.sh/nodepool': pool } };
  h.seed([
    nodePool(pool, 'aws', { instanceTypes: DISRUPTION_TYPES }),
    ...Array.from({ length: pods }, (_, i) => pod(`${app}-${i}`, { cpu: '1', replicaSet: app, ...onPool })),
    pod(`${tag}-batch`, { gpus: 4, cpu: '2', ...onPool }),
  ]);
  await provision(h);
  await expect.poll(() => nodesOf(h, pool).length).toBe(1);
  await initializeNodes(h);
  h.bind();
  expect(podsOf(h, app).every((p) => nodeNameOf(p))).toBe(true);
  h.kube.store.delete(h.kube.typeOf('Pod'), 'default', `${tag}-batch`, { gracePeriodSeconds: 0 });
  h.clock.advance(60_000); // past the pool's consolidateAfter
  const node = nodesOf(h, pool)[0]!;
  const instance = liveInstances(h).find((i) => providerIdOf(node).endsWith(`/${i.instanceId}`));
  expect(instance?.instanceType).toBe('g5.12xlarge');
  return { pool, app, candidate: String(node.metadata.name), instanceId: instance!.instanceId, pods };
}

/**
 * The next invocations, as the schedules would run them: launches finish, lifecycle registers and
 * initializes, the scheduler binds, orchestrate advances, the kubelet ends evicted pods, time passes (past
 * the admission grace, so an unconfirmed command is rolled back). Until no command is open.
 */
export async function recover(h: E2eHarness, rounds = 6): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await h.invoker.settled();
    await initializeNodes(h);
    h.bind();
    refreshDisruptionBudgets(h.kube);
    await orchestrate(h);
    h.kube.terminatePods();
    h.bind();
    if ((await openCommands(h)).length === 0) return;
    h.clock.advance(11 * 60_000);
  }
  throw new Error(`commands still open after ${rounds} rounds: ${JSON.stringify(await openCommands(h))}`);
}

/** No stranded taint, no orphan instance or claim, no lost pod; and the command either finished or was undone. */
export async function expectNothingLeftBehind(
  h: E2eHarness,
  s: Scenario,
): Promise<'completed' | 'rolled-back'> {
  expect(await openCommands(h)).toEqual([]);
  const tainted = h
    .list('Node')
    .filter((n) => (spec<{ taints?: { key: string }[] }>(n).taints ?? []).some((t) => t.key === DISRUPTED));
  expect(tainted.map((n) => n.metadata.name)).toEqual([]);
  const claimed = new Set(h.list('NodeClaim').map(providerIdOf));
  expect(liveInstances(h).filter((i) => ![...claimed].some((id) => id.endsWith(`/${i.instanceId}`)))).toEqual(
    [],
  );
  const live = new Set(liveInstances(h).map((i) => i.instanceId));
  const claims = h.list('NodeClaim').filter((c) => labels(c)['karpenter.sh/nodepool'] === s.pool);
  expect(claims.filter((c) => ![...live].some((id) => providerIdOf(c).endsWith(`/${id}`)))).toEqual([]);
  // Every pod of the candidate is still on it or running elsewhere: none lost, none left pending.
  const nodes = new Set(h.list('Node').map((n) => String(n.metadata.name)));
  const pods = podsOf(h, s.app);
  expect(pods).toHaveLength(s.pods);
  expect(pods.filter((p) => !nodes.has(nodeNameOf(p) ?? '') || p.metadata.deletionTimestamp)).toEqual([]);
  const candidateGone = !nodes.has(s.candidate);
  expect(candidateGone).toBe(!live.has(s.instanceId));
  return candidateGone ? 'completed' : 'rolled-back';
}

/** One Lambda container whose every client (kube, DynamoDB, EC2) goes through one crashable set of proxies. */
export async function crashableContainer(h: E2eHarness) {
  const wire = await startCrashableContainer({
    kube: h.settings.cluster.server,
    dynamodb: h.settings.store.endpoint ?? '',
    ec2: h.settings.ec2.endpoint ?? '',
  });
  const closer = new Closer();
  return {
    wire,
    cluster: buildCluster({ ...h.settings.cluster, server: wire.endpoints.kube }, h.logger),
    store: buildStateStore(
      { ...h.settings.store, endpoint: wire.endpoints.dynamodb },
      h.clock,
      LOCAL_CREDENTIALS,
      closer,
    ),
    ec2: buildEc2Provider(
      { ...h.settings.ec2, endpoint: wire.endpoints.ec2 },
      h.clock,
      h.logger,
      LOCAL_CREDENTIALS,
      closer,
      liveEc2Prices({ ...h.settings.ec2, endpoint: wire.endpoints.ec2 }, h.clock, LOCAL_CREDENTIALS, closer),
      h.deployment,
    ),
    close: async () => {
      await closer.close();
      await wire.close();
    },
  };
}
