// Seeds the pass state a fleet of N nodes leaves in the store (shaped after ramp-3400: 8 NodePools, a
// pending backlog of 3.4 pods per node, a fifth of it unprovisionable), and runs one pass's store calls.
import type { StateStore } from '../../../shared/ports/state-store/index.ts';
import type { Clock } from '../../../shared/ports/clock.ts';

export const POOLS = [
  'train-aws',
  'train-gcp',
  'infer-aws',
  'infer-gcp',
  'cpu-aws',
  'cpu-gcp',
  'team-a',
  'team-b',
] as const;

export interface FleetShape {
  readonly nodes: number;
  readonly verdicts: number;
  readonly nominations: number;
  readonly openCommands: number;
}

export const fleetShape = (nodes: number): FleetShape => ({
  nodes,
  verdicts: Math.round(nodes * 3.4 * 0.2),
  nominations: Math.round(nodes * 3.4 * 0.2),
  openCommands: 5,
});

const node = (i: number): string => `ip-10-0-${Math.floor(i / 250)}-${i % 250}.ec2.internal`;
const pool = (i: number): string => POOLS[i % POOLS.length] as string;

/** Writes the state as earlier passes, provisioning and admission would have left it. */
export async function seedPassState(
  store: StateStore,
  cluster: string,
  clock: Clock,
  shape: FleetShape,
): Promise<void> {
  const later = new Date(clock.now().getTime() + 300_000);
  const nodes = Array.from({ length: shape.nodes }, (_, i) => i);
  for (const p of POOLS) {
    const cycle = await store.startCoverageCycle(cluster, p, 0);
    await store.markEvaluated(cluster, p, cycle, nodes.filter((i) => pool(i) === p).map(node));
  }
  // Commands first: admitting one clears the negative cache (a new epoch), so the entries go in after it.
  const lock = await store.acquireLease({ cluster, name: 'admission', owner: 'seed', ttlMs: 60_000 });
  for (let c = 0; c < shape.openCommands; c++)
    await store.admitCommand(lock, {
      id: `seed-${c}`,
      method: 'single-node-consolidation',
      decision: 'replace',
      candidates: [node(c)],
      replacements: [`claim-${c}`],
    });
  await store.releaseLease(lock);
  const { epoch } = await store.loadPassState(cluster);
  await store.putNegativeEntries(
    cluster,
    epoch,
    nodes.map((i) => ({
      candidate: node(i),
      fingerprint: `sha256:${i.toString(16).padStart(64, '0')}`,
      expiresAt: later,
    })),
  );
  await store.putVerdicts(
    cluster,
    Array.from({ length: shape.verdicts }, (_, i) => ({
      podKey: `batch/job-${i}-worker`,
      podUid: `uid-${i}`,
      reason: 'incompatible with every NodePool: no instance type offers nvidia.com/gpu model B300',
      expiresAt: later,
    })),
  );
  await store.putNominations(
    cluster,
    Array.from({ length: shape.nominations }, (_, i) => ({
      podKey: `serve/replica-${i}`,
      claimName: `infer-aws-${i % 50}`,
      expiresAt: later,
    })),
  );
  await store.putUnavailableOfferings(cluster, [
    {
      cloud: 'aws',
      instanceType: 'p5.48xlarge',
      zone: 'us-east-1a',
      capacityType: 'spot',
      reason: 'InsufficientInstanceCapacity',
      expiresAt: later,
    },
  ]);
}

/** The store calls of one consolidation pass (docs/architecture.md), split so their round trips can be counted apart. */
export const passSteps = (
  store: StateStore,
  cluster: string,
  clock: Clock,
  shape: FleetShape,
  runId: string,
) => {
  let lease: Awaited<ReturnType<StateStore['acquireLease']>> | undefined;
  let epoch = 0;
  return {
    acquire: async () => {
      lease = await store.acquireLease({
        cluster,
        name: 'consolidation',
        owner: `pass-${runId}`,
        ttlMs: 300_000,
        runId,
      });
    },
    load: async () => {
      epoch = (await store.loadPassState(cluster)).epoch;
    },
    /** Worst case: every candidate evaluated and every verdict a fresh no-op (observe-only mode). */
    persist: async () => {
      const later = new Date(clock.now().getTime() + 300_000);
      const nodes = Array.from({ length: shape.nodes }, (_, i) => i);
      await store.putNegativeEntries(
        cluster,
        epoch,
        nodes.map((i) => ({ candidate: node(i), fingerprint: `sha256:${runId}-${i}`, expiresAt: later })),
      );
      for (const p of POOLS)
        await store.markEvaluated(cluster, p, 1, nodes.filter((i) => pool(i) === p).map(node));
    },
    release: async () => {
      if (lease) await store.releaseLease(lease);
    },
  };
};
