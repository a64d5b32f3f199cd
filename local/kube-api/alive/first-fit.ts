// First-fit placement for the binder, without rescanning a full fleet for every pod: within one binding pass
// the room left on a node only shrinks, so a node that had no room for a pod's shape still has none.
import type { KubeObject } from '../store.ts';
import { fits, requestsOf, take, type Free } from './fit.ts';

const shapes = new WeakMap<KubeObject, string>();

/** What the fit test reads of a pod: its requests, node selector, required node affinity, tolerations. */
function shapeOf(pod: KubeObject): string {
  let s = shapes.get(pod);
  if (s === undefined) {
    const spec = (pod.spec ?? {}) as {
      nodeSelector?: unknown;
      tolerations?: unknown;
      affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: unknown } };
    };
    const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    s = JSON.stringify([requestsOf(pod), spec.nodeSelector, required, spec.tolerations]);
    shapes.set(pod, s);
  }
  return s;
}

/**
 * The first node (in `nodes` order) with room for a pod in `room`, which it takes. Per shape, it remembers
 * how far scans got: nodes before that index failed the same test against no less room than now. A trial
 * (a gang's tentative placement on a copy of the room) starts from its base's cursors and keeps its own.
 */
export class FirstFit {
  private readonly from = new Map<string, number>();

  constructor(
    private readonly nodes: readonly KubeObject[],
    readonly room: Map<string, Free>,
    private readonly base?: FirstFit,
  ) {}

  /** A trial on a copy of this room: what fails in it says nothing about this room, so it keeps its own cursors. */
  trial(): FirstFit {
    const copy = new Map([...this.room].map(([k, v]) => [k, { ...v }]));
    return new FirstFit(this.nodes, copy, this);
  }

  place(pod: KubeObject): string | undefined {
    const shape = shapeOf(pod);
    let i = Math.max(this.from.get(shape) ?? 0, this.base?.from.get(shape) ?? 0);
    for (; i < this.nodes.length; i++) {
      const name = String((this.nodes[i] as KubeObject).metadata.name);
      const free = this.room.get(name);
      if (free && fits(pod, this.nodes[i] as KubeObject, free)) {
        this.from.set(shape, i);
        take(free, pod);
        return name;
      }
    }
    this.from.set(shape, i);
    return undefined;
  }
}
