// Load changes a scenario makes through the API server as an owner would: pods leave their owner (so it does
// not recreate them) and are deleted, spread over the fleet.
import type { KubeApiEmulator, KubeObject } from '../../kube-api/index.ts';
import { StatusError } from '../../kube-api/status.ts';
import type { PodLedger } from '../pods.ts';

type PodFields = { spec?: { nodeName?: string }; metadata: { ownerReferences?: { kind?: string }[] } };
export const boundPods = (e: KubeApiEmulator): KubeObject[] =>
  e.store.all(e.typeOf('Pod')).filter((p) => {
    const f = p as PodFields;
    return (
      f.spec?.nodeName &&
      !p.metadata.deletionTimestamp &&
      !f.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet')
    );
  });

/**
 * Scales down: deletes `fraction` of the bound, non-DaemonSet pods (every k-th, so the fall is spread over
 * the fleet), or of those in `namespace` only. The owner deletes them, so the owner does not recreate them: the pod leaves its owner first.
 */
export function shed(e: KubeApiEmulator, pods: PodLedger, fraction: number, namespace?: string): void {
  const step = Math.max(1, Math.round(1 / fraction));
  remove(
    e,
    pods,
    boundPods(e)
      .filter((p) => namespace === undefined || p.metadata.namespace === namespace)
      .filter((_, i) => i % step === 0),
  );
}

/** The owner lets each pod go (so it does not recreate it), then the pod is deleted. */
export function remove(e: KubeApiEmulator, pods: PodLedger, victims: readonly KubeObject[]): void {
  const t = e.typeOf('Pod');
  for (const p of victims) {
    const ns = String(p.metadata.namespace);
    const name = String(p.metadata.name);
    e.store.patch(
      t,
      ns,
      name,
      'application/merge-patch+json',
      { metadata: { ownerReferences: null } },
      undefined,
    );
    try {
      e.store.delete(t, ns, name);
    } catch (err: unknown) {
      // The write may have let a terminating pod go already: then it is gone all the same.
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
    pods.removed(p);
  }
}
