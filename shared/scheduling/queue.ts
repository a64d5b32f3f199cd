// Karpenter's scheduling queue: pods by CPU then memory descending (ties: oldest first, then name), retried
// after failures until a full cycle makes no progress.
import type { PodState } from './pod-state.ts';

export function byCpuAndMemoryDescending(a: PodState, b: PodState): number {
  const x = a.info.order;
  const y = b.info.order;
  return (
    y.cpu - x.cpu ||
    y.memory - x.memory ||
    (x.created < y.created ? -1 : x.created > y.created ? 1 : 0) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

export class Queue {
  private pods: PodState[];
  private head = 0;
  private lastLen = new Map<string, number>();

  constructor(pods: readonly PodState[]) {
    this.pods = [...pods].sort(byCpuAndMemoryDescending);
  }

  private get length(): number {
    return this.pods.length - this.head;
  }

  pop(): PodState | undefined {
    if (this.length === 0) return undefined;
    const p = this.pods[this.head] as PodState;
    // popping a pod last pushed at this same queue length means a whole cycle passed without progress
    if (this.lastLen.get(p.key) === this.length) return undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.pods.length) {
      this.pods = this.pods.slice(this.head);
      this.head = 0;
    }
    return p;
  }

  push(pod: PodState, relaxed: boolean): void {
    this.pods.push(pod);
    if (relaxed) this.lastLen = new Map();
    else this.lastLen.set(pod.key, this.length);
  }

  /** Removes the given pods (members of a gang handled as a unit). */
  remove(keys: ReadonlySet<string>): void {
    this.pods = this.pods.slice(this.head).filter((p) => !keys.has(p.key));
    this.head = 0;
  }

  /** Pods still queued (never placed): what remains when the loop stops. */
  remaining(): PodState[] {
    return this.pods.slice(this.head);
  }
}
