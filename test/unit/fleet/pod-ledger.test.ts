// The fleet's pod accounting (local/fleet/pods.ts): a controller's pods per owner, a DaemonSet's per node, so
// that the DaemonSet pods PodGC deletes with their Node are no loss while one missing beside its Node is.
import { describe, expect, it } from 'vitest';
import { KubeApiEmulator } from '../../../local/kube-api/index.ts';
import { PodLedger } from '../../../local/fleet/pods.ts';
import { node, pod } from '../../contracts/cluster/harness.ts';

const daemonPod = (name: string, on: string) =>
  pod('kube-system', name, {
    metadata: {
      namespace: 'kube-system',
      name,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u', controller: true },
      ],
    },
    spec: { nodeName: on, containers: [{ name: 'c' }] },
  });

describe('the pod ledger', () => {
  it('counts a DaemonSet pod lost only while its node is still there', () => {
    const kube = new KubeApiEmulator({ podTermination: 'immediate' });
    kube.seed([node('n1'), node('n2'), node('n3'), daemonPod('agent-1', 'n1'), daemonPod('agent-2', 'n2')]);
    kube.seed([daemonPod('agent-3', 'n3')]);
    const ledger = new PodLedger(kube);
    const [nodes, pods] = [kube.typeOf('Node'), kube.typeOf('Pod')];
    kube.store.delete(nodes, undefined, 'n1');
    kube.store.delete(pods, 'kube-system', 'agent-1');
    expect(ledger.lost()).toEqual({ count: 0, owners: [] });
    kube.store.delete(pods, 'kube-system', 'agent-2');
    kube.store.delete(pods, 'kube-system', 'agent-3');
    expect(ledger.lost()).toEqual({ count: 2, owners: ['kube-system/DaemonSet/agent'] });
  });

  it('counts a ReplicaSet pod per owner, whatever node it was on', () => {
    const kube = new KubeApiEmulator({ podTermination: 'immediate' });
    const owned = (name: string) =>
      pod('ns', name, {
        metadata: {
          namespace: 'ns',
          name,
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u', controller: true },
          ],
        },
        spec: { nodeName: 'n1', containers: [{ name: 'c' }] },
      });
    kube.seed([node('n1'), owned('web-a'), owned('web-b')]);
    const ledger = new PodLedger(kube);
    kube.store.delete(kube.typeOf('Node'), undefined, 'n1');
    kube.store.delete(kube.typeOf('Pod'), 'ns', 'web-a');
    expect(ledger.lost()).toEqual({ count: 1, owners: ['ns/ReplicaSet/web'] });
  });
});
