// The emulator's pod termination bookkeeping: the grace period a deletion gets, pods marked with a
// deletionTimestamp while it runs, and their removal once it has passed (a kubelet's confirmation),
// kept apart from the object storage in store.ts, which it drives through the TerminationHost callbacks.
import type { ResourceType } from './resources.ts';
import type { KubeObject } from './selectors.ts';

/** How a pod deletion ends: after its grace period, as a kubelet confirms it, or at once (no kubelet). */
export const POD_TERMINATION = ['graceful', 'immediate'] as const;
export type PodTermination = (typeof POD_TERMINATION)[number];

/** The API server's default `terminationGracePeriodSeconds` for a pod. */
const DEFAULT_GRACE_SECONDS = 30;
const isPods = (t: ResourceType): boolean => t.group === '' && t.plural === 'pods';
export const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const meta = (o: KubeObject): Record<string, unknown> => o.metadata;

/** What the store lends the bookkeeping: its clock, its current objects, and its two ways of writing them. */
export interface TerminationHost {
  now(): Date;
  current(t: ResourceType, key: string): KubeObject | undefined;
  /** Stores `current` with `fields` merged into its metadata (a MODIFIED event). */
  mark(t: ResourceType, key: string, current: KubeObject, fields: Record<string, unknown>): KubeObject;
  /** Deletes the object (a DELETED event, delete hooks). */
  remove(t: ResourceType, key: string, last: KubeObject): KubeObject;
}

export class Terminations {
  /** Pods marked for graceful deletion, by key: removed once their deletionTimestamp has passed. */
  private readonly pending = new Map<string, ResourceType>();
  private readonly hooks: ((type: ResourceType, obj: KubeObject) => void)[] = [];
  /** Set by the server: wakes it up when a grace period ends, so watchers see the DELETED event. */
  schedule: (ms: number) => void = () => {};

  constructor(
    private readonly host: TerminationHost,
    readonly policy: PodTermination,
  ) {}

  /** Called when a pod starts its graceful termination (a ReplicaSet replaces it from then on). */
  onTerminate(hook: (type: ResourceType, obj: KubeObject) => void): void {
    this.hooks.push(hook);
  }

  /** The grace period a deletion gets: pods not bound to a node, or terminal, go at once (as in the API server). */
  graceOf(t: ResourceType, pod: KubeObject, requested: number | undefined): number {
    if (!isPods(t) || this.policy === 'immediate') return 0;
    const spec = (pod.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
    const grace = requested ?? spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
    const running = meta(pod).deletionGracePeriodSeconds;
    // A second deletion may shorten a running grace period, never lengthen it.
    return typeof running === 'number' ? Math.min(running, grace) : grace;
  }

  start(t: ResourceType, key: string, pod: KubeObject, grace: number): KubeObject {
    const m = meta(pod);
    if (m.deletionGracePeriodSeconds === grace) return pod;
    const at = new Date(this.host.now().getTime() + grace * 1000);
    const marked = this.host.mark(t, key, pod, {
      deletionTimestamp: rfc3339(at),
      deletionGracePeriodSeconds: grace,
    });
    this.pending.set(key, t);
    this.schedule(grace * 1000);
    for (const hook of this.hooks) hook(t, marked);
    return marked;
  }

  /** Removes every pod whose grace period has ended (the server calls this before each request). */
  reap(): void {
    const now = this.host.now().getTime();
    for (const [key, t] of this.pending) {
      const pod = this.host.current(t, key);
      if (pod && Date.parse(String(meta(pod).deletionTimestamp)) > now) continue;
      this.finish(key, t);
    }
  }

  /** The kubelet stand-in: every terminating pod finishes now, whatever is left of its grace period. */
  finishAll(): void {
    for (const [key, t] of this.pending) this.finish(key, t);
  }

  /** The object is gone (by whatever path): nothing is left to reap. */
  forget(key: string): void {
    this.pending.delete(key);
  }

  // The kubelet's confirmation is a deletion with grace 0: the pod goes, or, while finalizers remain, stays
  // marked with grace 0 (deletionTimestamp now), so that the last finalizer's removal completes the deletion.
  private finish(key: string, t: ResourceType): void {
    this.pending.delete(key);
    const pod = this.host.current(t, key);
    if (!pod) return;
    if (((meta(pod).finalizers as string[] | undefined) ?? []).length === 0)
      this.host.remove(t, key, structuredClone(pod));
    else
      this.host.mark(t, key, pod, {
        deletionTimestamp: rfc3339(this.host.now()),
        deletionGracePeriodSeconds: 0,
      });
  }
}
