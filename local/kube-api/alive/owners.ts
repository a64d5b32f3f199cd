// Controllers, as far as the local fleet needs them: a pod deleted or evicted that a ReplicaSet,
// StatefulSet or Job owns comes back as a new pending pod (same spec, no node), as its owner would make it.
// A ReplicaSet or Job replaces a pod as soon as it starts terminating (terminating pods do not count as
// active); a StatefulSet reuses the name, so it waits until the old pod is gone.
import type { KubeApiEmulator } from '../server.ts';
import type { KubeObject } from '../store.ts';

const RECREATING_OWNERS = new Set(['ReplicaSet', 'StatefulSet', 'Job']);

export function enableOwnerRecreation(emulator: KubeApiEmulator): void {
  const pods = emulator.typeOf('Pod');
  const ownerOf = (obj: KubeObject) =>
    (
      obj.metadata.ownerReferences as { kind: string; name: string; controller?: boolean }[] | undefined
    )?.find((o) => o.controller !== false && RECREATING_OWNERS.has(o.kind));
  emulator.store.onTerminate((type, obj) => {
    const owner = ownerOf(obj);
    if (type === pods && owner && owner.kind !== 'StatefulSet') recreate(emulator, obj, owner);
  });
  emulator.store.onDelete((type, obj) => {
    const owner = ownerOf(obj);
    // A pod that terminated gracefully was replaced when its termination began (unless a StatefulSet owns it).
    const replaced = obj.metadata.deletionGracePeriodSeconds !== undefined && owner?.kind !== 'StatefulSet';
    if (type === pods && owner && !replaced) recreate(emulator, obj, owner);
  });
}

function recreate(emulator: KubeApiEmulator, obj: KubeObject, owner: { kind: string; name: string }): void {
  const pods = emulator.typeOf('Pod');
  // A StatefulSet keeps the pod's name; the others take a fresh suffix.
  const name =
    owner.kind === 'StatefulSet'
      ? String(obj.metadata.name)
      : `${owner.name}-${emulator.store.newId().slice(0, 5)}`;
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
}
