// Controllers, as far as the local fleet needs them: a pod deleted or evicted that a ReplicaSet,
// StatefulSet or Job owns comes back as a new pending pod (same spec, no node), as its owner would make it.
import { randomUUID } from 'node:crypto';
import type { KubeApiEmulator } from '../server.ts';
import type { KubeObject } from '../store.ts';

const RECREATING_OWNERS = new Set(['ReplicaSet', 'StatefulSet', 'Job']);

export function enableOwnerRecreation(emulator: KubeApiEmulator): void {
  const pods = emulator.typeOf('Pod');
  emulator.store.onDelete((type, obj) => {
    if (type !== pods) return;
    const owner = (
      obj.metadata.ownerReferences as { kind: string; name: string; controller?: boolean }[] | undefined
    )?.find((o) => o.controller !== false && RECREATING_OWNERS.has(o.kind));
    if (!owner) return;
    // A StatefulSet keeps the pod's name; the others take a fresh suffix.
    const name =
      owner.kind === 'StatefulSet' ? String(obj.metadata.name) : `${owner.name}-${randomUUID().slice(0, 5)}`;
    const { nodeName: _node, ...spec } = (obj.spec ?? {}) as Record<string, unknown>;
    const metadata = {
      name,
      namespace: obj.metadata.namespace,
      labels: obj.metadata.labels,
      annotations: obj.metadata.annotations,
      ownerReferences: obj.metadata.ownerReferences,
    };
    const replacement: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata,
      spec,
      status: { phase: 'Pending' },
    };
    // Deferred: the store is still inside the delete that triggered this.
    queueMicrotask(() => emulator.store.create(pods, String(obj.metadata.namespace), replacement));
  });
}
