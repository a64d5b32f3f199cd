// One resource's objects in the emulator's store: by key, the keys in sorted order for LIST pages, the event
// log, and the index kube-apiserver keeps for pods by `spec.nodeName` (its watch cache indexes that field,
// which the kubelet and every drain select on), so such a LIST reads a node's pods, not the whole fleet's.
import { EventLog } from './events.ts';
import type { KubeObject } from './selectors.ts';

const nodeNameOf = (o: KubeObject): string | undefined => {
  const n = (o.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof n === 'string' && n !== '' ? n : undefined;
};

export class Table {
  readonly objects = new Map<string, KubeObject>();
  readonly log = new EventLog();
  private sorted: string[] | undefined;
  private readonly byNode: Map<string, Set<string>> | undefined;

  /** `indexNodeName`: keep the spec.nodeName index (pods). */
  constructor(indexNodeName: boolean) {
    this.byNode = indexNodeName ? new Map() : undefined;
  }

  keys(): string[] {
    this.sorted ??= [...this.objects.keys()].sort();
    return this.sorted;
  }

  /** The sorted keys of the objects whose spec.nodeName is `node`; undefined when this table keeps no index. */
  keysOnNode(node: string): string[] | undefined {
    if (!this.byNode) return undefined;
    return [...(this.byNode.get(node) ?? [])].sort();
  }

  put(key: string, obj: KubeObject): void {
    const before = this.objects.get(key);
    if (!before) this.sorted = undefined;
    this.objects.set(key, obj);
    if (this.byNode) this.reindex(key, before && nodeNameOf(before), nodeNameOf(obj));
  }

  drop(key: string): void {
    const before = this.objects.get(key);
    if (!before) return;
    this.objects.delete(key);
    this.sorted = undefined;
    if (this.byNode) this.reindex(key, nodeNameOf(before), undefined);
  }

  private reindex(key: string, from: string | undefined, to: string | undefined): void {
    if (from === to || !this.byNode) return;
    if (from !== undefined) {
      const set = this.byNode.get(from);
      set?.delete(key);
      if (set?.size === 0) this.byNode.delete(from);
    }
    if (to !== undefined) {
      let set = this.byNode.get(to);
      if (!set) this.byNode.set(to, (set = new Set()));
      set.add(key);
    }
  }
}
