// NodePool status as lifecycle publishes it (shared/loop/pool-status.ts): resources and nodes from the pool's
// nodes, Karpenter's readiness conditions with transition events, nothing written on a quiet pass, and a
// conflict left to the next pass.
import { describe, expect, it } from 'vitest';
import { publishPoolStatuses } from '../../../shared/loop/pool-status.ts';
import { ConflictError } from '../../../shared/ports/cluster/errors.ts';
import { FakeCluster } from '../../fakes/cluster.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';
import { node, nodePool } from '../../fixtures/builders/index.ts';

const gpuNode = (name: string, pool: string) => {
  const n = node(name, { pool });
  return {
    ...n,
    status: { ...(n.status as object), capacity: { cpu: '48', memory: '192Gi', 'nvidia.com/gpu': '4' } },
  };
};

function world(withClass = true) {
  const cluster = new FakeCluster();
  cluster.seed([
    nodePool('gpu'),
    nodePool('idle'),
    gpuNode('n1', 'gpu'),
    gpuNode('n2', 'gpu'),
    ...(withClass
      ? [
          {
            apiVersion: 'karpenter.k8s.aws/v1',
            kind: 'EC2NodeClass',
            metadata: { name: 'default' },
            // A class its nodes can join with (docs/mechanisms/bootstrap.md): Ready unless something else says not.
            spec: {
              role: 'KarpenterNodeRole',
              bootstrap: {
                apiServerEndpoint: 'https://10.0.0.1:6443',
                caCertHash: `sha256:${'0'.repeat(64)}`,
              },
            },
          },
        ]
      : []),
  ]);
  const deps = {
    cluster,
    clock: new ManualClock(),
    logger: new MemoryLogger(),
    metrics: new RecordingMetrics(),
  };
  return { cluster, deps };
}

type Status = {
  nodes: number;
  resources: Record<string, string>;
  conditions: { type: string; status: string; reason: string; message?: string }[];
};
const statusOf = async (cluster: FakeCluster, name: string) =>
  (
    (await cluster.readSnapshot()).objects.nodePools.find((p) => p.metadata.name === name) as unknown as {
      status: Status;
    }
  ).status;

describe('NodePool status', () => {
  it('sums the nodes of each pool and reports it Ready, with one event per transition', async () => {
    const { cluster, deps } = world();
    expect(await publishPoolStatuses(deps, (await cluster.readSnapshot()).objects)).toBe(2);
    const gpu = await statusOf(cluster, 'gpu');
    expect(gpu.nodes).toBe(2);
    expect(gpu.resources).toMatchObject({ cpu: '96', memory: '384Gi', 'nvidia.com/gpu': '8', nodes: '2' });
    expect(await statusOf(cluster, 'idle')).toMatchObject({ nodes: 0, resources: { cpu: '0', nodes: '0' } });
    for (const type of ['ValidationSucceeded', 'NodeClassReady', 'Ready'])
      expect(gpu.conditions).toContainEqual(expect.objectContaining({ type, status: 'True', reason: type }));
    expect(cluster.events.filter((e) => e.involved.name === 'gpu').map((e) => e.message)).toContain(
      'Status condition transitioned, Type: Ready, Status: Unknown -> True, Reason: Ready',
    );
  });

  it('writes nothing on a quiet pass', async () => {
    const { cluster, deps } = world();
    await publishPoolStatuses(deps, (await cluster.readSnapshot()).objects);
    const writes = cluster.statusWrites;
    deps.clock.advance(60_000);
    expect(await publishPoolStatuses(deps, (await cluster.readSnapshot()).objects)).toBe(0);
    expect(cluster.statusWrites).toBe(writes);
  });

  it('a missing node class makes the pool NodeClassReady=False and Ready=False (UnhealthyDependents)', async () => {
    const { cluster, deps } = world(false);
    await publishPoolStatuses(deps, (await cluster.readSnapshot()).objects);
    const c = (await statusOf(cluster, 'gpu')).conditions;
    expect(c).toContainEqual(
      expect.objectContaining({ type: 'NodeClassReady', status: 'False', reason: 'NodeClassNotFound' }),
    );
    expect(c).toContainEqual(
      expect.objectContaining({
        type: 'Ready',
        status: 'False',
        reason: 'UnhealthyDependents',
        message: 'NodeClassReady=False',
      }),
    );
  });

  it('a pool written by someone else since the read is left to the next pass', async () => {
    const { cluster, deps } = world();
    const objects = (await cluster.readSnapshot()).objects;
    cluster.touch('NodePool', 'gpu', { moved: 'on' });
    expect(await publishPoolStatuses(deps, objects)).toBe(1); // only idle
    await expect(cluster.patchStatus('NodePool', 'gpu', '0', {})).rejects.toBeInstanceOf(ConflictError);
  });
});
