// Pod accounting for the `lostPods` invariant: a controller's pods are counted per owner (an evicted pod comes
// back under a new name, which is not a loss), a bare pod by name. The scenario's own scale-downs are
// subtracted; what is missing at the end beyond them was lost.
import type { KubeApiEmulator, KubeObject } from '../kube-api/index.ts';

type PodFields = {
  metadata: { ownerReferences?: { kind?: string; name?: string; controller?: boolean }[] };
  status?: { phase?: string };
};

// A DaemonSet's pods are counted per node: one whose Node is gone went with it (PodGC deletes it,
// local/kube-api/README.md), which is no loss.
const keyOf = (p: KubeObject): string => {
  const owner = (p as PodFields).metadata.ownerReferences?.find((o) => o.controller !== false);
  const ns = String(p.metadata.namespace ?? '');
  if (owner?.kind === 'DaemonSet') return `${ns}/DaemonSet/${String(owner.name)}@${nodeOf(p)}`;
  return owner ? `${ns}/${owner.kind}/${owner.name}` : `${ns}/Pod/${String(p.metadata.name)}`;
};
const nodeOf = (p: KubeObject): string =>
  String((p.spec as { nodeName?: string } | undefined)?.nodeName ?? '');
const active = (p: KubeObject): boolean =>
  !p.metadata.deletionTimestamp && !['Succeeded', 'Failed'].includes((p as PodFields).status?.phase ?? '');

export class PodLedger {
  private readonly expected = new Map<string, number>();
  constructor(private readonly kube: KubeApiEmulator) {
    for (const p of this.pods()) this.expected.set(keyOf(p), (this.expected.get(keyOf(p)) ?? 0) + 1);
  }

  /** The scenario removes a pod on purpose (a scale-down): one fewer is expected of its owner. */
  removed(p: KubeObject): void {
    this.expected.set(keyOf(p), (this.expected.get(keyOf(p)) ?? 0) - 1);
  }

  /** The scenario adds a pod (a scale-up): one more is expected. */
  added(p: KubeObject): void {
    this.expected.set(keyOf(p), (this.expected.get(keyOf(p)) ?? 0) + 1);
  }

  /** Pods expected (running or pending) that are neither at the end, with the owners that lost them. */
  lost(): { count: number; owners: string[] } {
    const now = new Map<string, number>();
    for (const p of this.pods()) now.set(keyOf(p), (now.get(keyOf(p)) ?? 0) + 1);
    const nodes = new Set(this.kube.store.all(this.kube.typeOf('Node')).map((n) => String(n.metadata.name)));
    let count = 0;
    const owners = new Set<string>();
    for (const [k, n] of this.expected) {
      const [owner, node] = k.split('@') as [string, string | undefined];
      if (node !== undefined && node !== '' && !nodes.has(node)) continue;
      const missing = n - (now.get(k) ?? 0);
      if (missing > 0) {
        count += missing;
        owners.add(owner);
      }
    }
    return { count, owners: [...owners] };
  }

  private pods(): KubeObject[] {
    return this.kube.store.all(this.kube.typeOf('Pod')).filter(active);
  }
}
