// A small world for the disruption use cases: the Kubernetes API emulator behind the real KubeCluster
// adapter, the in-memory StateStore, a manual clock, recorded metrics, launches and sleeps.
import { KubeApiEmulator } from '../../../local/kube-api/server.ts';
import { defaultCrds } from '../../../local/kube-api/crds.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import { KubeCluster, kubeConfigFor, makeClients } from '../../../shared/adapters/kube/index.ts';
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import type { Labels, Metrics } from '../../../shared/ports/metrics.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { ManualTimer } from '../../fakes/manual-timer.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';
import { catalog, ec2NodeClass } from '../disruption/fixtures.ts';

export interface Recorded {
  readonly name: string;
  readonly value: number;
  readonly labels: Labels;
}

export class RecordingMetrics implements Metrics {
  readonly records: Recorded[] = [];
  count(name: string, value = 1, labels: Labels = {}): void {
    this.records.push({ name, value, labels });
  }
  gauge(name: string, value: number, labels: Labels = {}): void {
    this.records.push({ name, value, labels });
  }
  observe(name: string, value: number, labels: Labels = {}): void {
    this.records.push({ name, value, labels });
  }
  total(name: string, labels: Labels = {}): number {
    return this.records
      .filter((r) => r.name === name && Object.entries(labels).every(([k, v]) => r.labels[k] === v))
      .reduce((s, r) => s + r.value, 0);
  }
}

export interface World {
  readonly emulator: KubeApiEmulator;
  readonly cluster: KubeCluster;
  readonly store: MemoryStateStore;
  readonly clock: ManualClock;
  readonly metrics: RecordingMetrics;
  readonly launched: NodeClaim[];
  readonly slept: number[];
  deps(): {
    store: MemoryStateStore;
    cluster: KubeCluster;
    clock: ManualClock;
    metrics: RecordingMetrics;
    instanceTypes: () => Promise<ReturnType<typeof catalog>>;
    launch: (claim: NodeClaim) => Promise<void>;
    newId: () => string;
    sleep: (ms: number) => Promise<void>;
    /** For leases: heartbeats never fire on their own (a use case finishes within one TTL here). */
    timer: ManualTimer;
    logger: MemoryLogger;
  };
  close(): Promise<void>;
}

export async function startWorld(
  objects: readonly Record<string, unknown>[],
  start = '2026-09-01T12:00:00Z',
): Promise<World> {
  const clock = new ManualClock(Date.parse(start));
  const emulator = new KubeApiEmulator({ crds: defaultCrds(), now: () => clock.now() });
  const url = await emulator.start();
  emulator.seed([ec2NodeClass(), ...objects].map((o) => o as KubeObject));
  // The emulator stamps creation times with its clock: let consolidateAfter pass before the test acts.
  clock.advance(600_000);
  const cluster = new KubeCluster(makeClients(kubeConfigFor(url, 'test-token')));
  const store = new MemoryStateStore(clock);
  const metrics = new RecordingMetrics();
  const launched: NodeClaim[] = [];
  const slept: number[] = [];
  let ids = 0;
  const types = catalog();
  return {
    emulator,
    cluster,
    store,
    clock,
    metrics,
    launched,
    slept,
    deps: () => ({
      store,
      cluster,
      clock,
      metrics,
      instanceTypes: async () => types,
      launch: async (claim) => void launched.push(claim),
      newId: () => `cmd${String(++ids).padStart(8, '0')}`,
      sleep: async (ms) => {
        slept.push(ms);
        clock.advance(ms);
      },
      timer: new ManualTimer(),
      logger: new MemoryLogger(),
    }),
    close: () => emulator.close(),
  };
}

/** What a launcher and the node's kubelet would do: the claim launches, its node registers and initializes. */
export async function bringUp(world: World, claimName: string): Promise<string> {
  const claim = await world.cluster.getNodeClaim(claimName);
  const nodeName = `node-${claimName}`;
  const typeReq = claim.spec.requirements.find((r) => r.key === 'node.kubernetes.io/instance-type');
  const type = typeReq?.values?.[0] ?? 's-2';
  const cpu = type.split('-')[1] ?? '2';
  const providerID = `aws:///us-east-1a/i-${claimName}`;
  world.emulator.seed([
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: nodeName,
        labels: {
          'kubernetes.io/hostname': nodeName,
          'node.kubernetes.io/instance-type': type,
          'topology.kubernetes.io/zone': 'us-east-1a',
          'karpenter.sh/capacity-type': 'on-demand',
          'karpenter.sh/nodepool': claim.metadata.labels?.['karpenter.sh/nodepool'] ?? 'default',
          'karpenter.sh/initialized': 'true',
          'kraftsman.dev/cloud': 'aws',
        },
      },
      spec: { providerID },
      status: {
        allocatable: { cpu, memory: `${Number(cpu) * 4}Gi`, pods: '110' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    } as KubeObject,
  ]);
  const at = world.clock.now().toISOString();
  await world.cluster.updateNodeClaimStatus(claimName, (s) => ({
    ...s,
    providerID,
    nodeName,
    conditions: ['Launched', 'Registered', 'Initialized'].map((type) => ({
      type,
      status: 'True',
      lastTransitionTime: at,
    })),
  }));
  return nodeName;
}
