// The PersistentVolumeClaims a pod's volumes resolve to (Karpenter's utils/volume GetPersistentVolumeClaim): a
// named claim, or for a generic ephemeral volume the claim `<pod>-<volume>` its controller creates.
import type { Pod } from '../model/pod.ts';
import type { PersistentVolumeClaim, StorageClass } from '../model/storage.ts';
import type { ClusterObjects } from './objects.ts';

const DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';

export interface PodClaim {
  /** `namespace/name`: what Karpenter's volume usage counts an attachment by (client.ObjectKeyFromObject). */
  readonly id: string;
  readonly volume: string;
  /** The claim, or undefined when a named claim is not in the snapshot. */
  readonly claim: PersistentVolumeClaim | undefined;
}

export type ClaimResolver = (pod: Pod) => readonly PodClaim[];

export function claimResolver(objects: ClusterObjects): ClaimResolver {
  const pvcs = new Map(
    objects.pvcs.map((c) => [`${c.metadata.namespace ?? 'default'}/${c.metadata.name}`, c]),
  );
  const fallbackClass = defaultClass(objects.storageClasses);
  return (pod) => {
    const ns = pod.metadata.namespace ?? 'default';
    const out: PodClaim[] = [];
    for (const v of pod.spec.volumes ?? []) {
      if (v.persistentVolumeClaim) {
        const id = `${ns}/${v.persistentVolumeClaim.claimName}`;
        out.push({ id, volume: v.name, claim: pvcs.get(id) });
      } else if (v.ephemeral) {
        // generated name per kubernetes.io/docs/concepts/storage/ephemeral-volumes/#persistentvolumeclaim-naming
        const name = `${pod.metadata.name}-${v.name}`;
        const id = `${ns}/${name}`;
        out.push({ id, volume: v.name, claim: pvcs.get(id) ?? fromTemplate(ns, name, v, fallbackClass) });
      }
    }
    return out;
  };
}

/**
 * The claim the ephemeral controller will create, when the snapshot was taken before it did: the template's
 * class, or the cluster's default class as the API server's DefaultStorageClass admission would set it.
 */
function fromTemplate(
  namespace: string,
  name: string,
  v: NonNullable<Pod['spec']['volumes']>[number],
  fallbackClass: string | undefined,
): PersistentVolumeClaim {
  const storageClassName = v.ephemeral?.volumeClaimTemplate?.spec?.storageClassName ?? fallbackClass;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace },
    spec: storageClassName === undefined ? {} : { storageClassName },
  };
}

/** The default StorageClass: the newest one annotated as default (the API server's rule since 1.26). */
function defaultClass(classes: readonly StorageClass[]): string | undefined {
  let best: StorageClass | undefined;
  for (const c of classes) {
    if (c.metadata.annotations?.[DEFAULT_CLASS] !== 'true') continue;
    const created = c.metadata.creationTimestamp ?? '';
    if (!best || created > (best.metadata.creationTimestamp ?? '')) best = c;
  }
  return best?.metadata.name;
}
