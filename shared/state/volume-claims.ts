// The PersistentVolumeClaims a pod's volumes resolve to (Karpenter's utils/volume GetPersistentVolumeClaim): a
// named claim, or for a generic ephemeral volume the claim `<pod>-<volume>` its controller creates. Until that
// claim exists the pod's volumes cannot be validated, and Karpenter's provisioner leaves the pod out (volumes.ts).
import type { Pod } from '../model/pod.ts';
import type { PersistentVolumeClaim } from '../model/storage.ts';
import type { ClusterObjects } from './objects.ts';

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
        out.push({ id, volume: v.name, claim: pvcs.get(id) });
      }
    }
    return out;
  };
}
