// Runs the Cluster contract against the in-memory fake and against KubeCluster over HTTP to the emulator.
import type { Route } from '../../../local/kube-api/routes.ts';
import { clusterContract } from './contract.ts';
import { FakeCluster } from '../../fakes/cluster.ts';
import { startHarness } from './harness.ts';
import type { ClusterEvent } from '../../../shared/ports/cluster/index.ts';

interface RawEvent {
  involvedObject: { kind: ClusterEvent['involved']['kind']; name: string; namespace?: string; uid?: string };
  type: ClusterEvent['type'];
  reason: string;
  message: string;
}
/** An Event object as the emulator stores it, read back into the port's shape. */
const eventOf = (e: RawEvent): ClusterEvent => ({
  involved: {
    kind: e.involvedObject.kind,
    name: e.involvedObject.name,
    ...(e.involvedObject.namespace ? { namespace: e.involvedObject.namespace } : {}),
    ...(e.involvedObject.uid ? { uid: e.involvedObject.uid } : {}),
  },
  type: e.type,
  reason: e.reason,
  message: e.message,
});

clusterContract('FakeCluster', async () => {
  const fake = new FakeCluster();
  return {
    cluster: (o) => {
      fake.conflictAttempts = o?.conflictAttempts ?? 5;
      return fake;
    },
    seed: (objects) => fake.seed(objects),
    race: (kind, name, times) => {
      let n = 0;
      fake.beforeWrite.push((k, nm) => {
        if (k === kind && nm === name && n < times) fake.touch(kind, name, { raced: String(++n) });
      });
    },
    events: () => Promise.resolve([...fake.events]),
    close: async () => {},
  };
});

clusterContract('KubeCluster against the emulator', async () => {
  const h = await startHarness();
  return {
    cluster: (o) => h.cluster(o ?? {}),
    seed: (objects) => h.emulator.seed(objects as never),
    race: (kind, name, times) => {
      let n = 0;
      h.emulator.beforeRequest.push((verb: string, r: Route) => {
        if ((verb === 'patch' || verb === 'update') && r.type.kind === kind && r.name === name && n < times)
          h.emulator.store.patch(
            r.type,
            undefined,
            name,
            'application/merge-patch+json',
            { metadata: { labels: { raced: String(++n) } } },
            undefined,
          );
      });
    },
    events: () =>
      Promise.resolve(
        h.emulator.store
          .list(h.emulator.typeOf('Event'), undefined)
          .items.map((raw) => eventOf(raw as unknown as RawEvent)),
      ),
    close: () => h.close(),
  };
});
