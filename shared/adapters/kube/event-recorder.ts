// Kubernetes events as Karpenter's recorder and client-go's correlator write them (docs/observability.md,
// "Events"): a repeat within the dedupe window is dropped, in this container (Karpenter's cache) and across
// containers (an event's name is derived from what it says, so a second writer meets 409 and reads the first);
// a repeat after the window becomes the same event with its count raised (PATCH), as `kubectl get events` shows
// "(x3 over 10m)". Rate-limited reasons spend a token bucket per reason.
import { createHash } from 'node:crypto';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { KINDS } from '../../model/objects.ts';
import type { ClusterEvent } from '../../ports/cluster/index.ts';
import type { KubeClients } from './client.ts';
import { statusOf, toClusterError } from './errors.ts';
import { plain } from './validate.ts';

/** Karpenter's defaultDedupeTimeout. */
export const DEFAULT_DEDUPE_MS = 2 * 60_000;
/** Dedupe keys this container remembers at most (older ones are dropped first). */
const MAX_REMEMBERED = 10_000;

const API_VERSION: Record<ClusterEvent['involved']['kind'], string> = {
  Node: 'v1',
  Pod: 'v1',
  NodeClaim: KINDS.NodeClaim.apiVersion,
  NodePool: KINDS.NodePool.apiVersion,
  EC2NodeClass: KINDS.EC2NodeClass.apiVersion,
  GCENodeClass: KINDS.GCENodeClass.apiVersion,
  ProvisioningRequest: KINDS.ProvisioningRequest.apiVersion,
};
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export type EventOutcome = 'created' | 'counted' | 'deduplicated' | 'rate-limited';

interface Bucket {
  tokens: number;
  at: number;
}

export class EventRecorder {
  /** Dedupe key → when its window ends (ms). */
  private readonly seen = new Map<string, number>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly c: KubeClients) {}

  async record(event: ClusterEvent): Promise<EventOutcome> {
    const at = event.at ?? new Date();
    const now = at.getTime();
    const windowMs = event.dedupeTimeoutMs ?? DEFAULT_DEDUPE_MS;
    const key = dedupeKey(event);
    if ((this.seen.get(key) ?? 0) > now) return 'deduplicated';
    if (event.rateLimit && !this.take(event.reason, event.rateLimit, now)) return 'rate-limited';
    this.remember(key, now + windowMs);
    try {
      return await this.write(event, at, windowMs);
    } catch (err: unknown) {
      this.seen.delete(key); // not written: the next attempt may try again
      throw toClusterError(err, { kind: event.involved.kind, name: event.involved.name });
    }
  }

  private async write(event: ClusterEvent, at: Date, windowMs: number): Promise<EventOutcome> {
    const { involved } = event;
    const namespace = involved.namespace ?? 'default';
    const name = `${involved.name}.${nameHash(event)}`;
    try {
      await this.c.core.createNamespacedEvent({
        namespace,
        body: {
          metadata: { name, namespace },
          involvedObject: {
            apiVersion: API_VERSION[involved.kind],
            kind: involved.kind,
            name: involved.name,
            ...(involved.namespace ? { namespace: involved.namespace } : {}),
            ...(involved.uid ? { uid: involved.uid } : {}),
          },
          type: event.type,
          reason: event.reason,
          message: event.message,
          source: { component: 'kraftsman' },
          reportingComponent: 'kraftsman',
          firstTimestamp: at,
          lastTimestamp: at,
          count: 1,
        },
      });
      return 'created';
    } catch (err: unknown) {
      if (statusOf(err)?.code !== 409) throw err;
    }
    // Another container (or an earlier invocation) wrote the same event: within the window it is a repeat to
    // drop; after it, client-go's correlator raises the count of the event already there.
    const existing = plain(await this.c.core.readNamespacedEvent({ name, namespace })) as {
      count?: number;
      lastTimestamp?: string;
    };
    const last = existing.lastTimestamp ? Date.parse(existing.lastTimestamp) : 0;
    if (at.getTime() - last < windowMs) return 'deduplicated';
    await this.c.core.patchNamespacedEvent(
      { name, namespace, body: { count: (existing.count ?? 1) + 1, lastTimestamp: at.toISOString() } },
      merge,
    );
    return 'counted';
  }

  /** A token bucket per reason (client-go's flowcontrol.NewTokenBucketRateLimiter, on the event's clock). */
  private take(reason: string, limit: NonNullable<ClusterEvent['rateLimit']>, now: number): boolean {
    const b = this.buckets.get(reason) ?? { tokens: limit.burst, at: now };
    b.tokens = Math.min(limit.burst, b.tokens + (Math.max(0, now - b.at) / 1000) * limit.perSecond);
    b.at = now;
    this.buckets.set(reason, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private remember(key: string, until: number): void {
    this.seen.delete(key);
    this.seen.set(key, until);
    if (this.seen.size > MAX_REMEMBERED) this.seen.delete(this.seen.keys().next().value as string);
  }
}

/** Karpenter's dedupe key (reason + DedupeValues); without values, the object and the message. */
function dedupeKey(e: ClusterEvent): string {
  const values = e.dedupeValues?.length
    ? e.dedupeValues
    : [e.involved.kind, e.involved.namespace ?? '', e.involved.name, e.involved.uid ?? '', e.message];
  return `${e.reason.toLowerCase()}-${values.join('-')}`;
}

/** The event's name suffix: the same object, reason and message always name the same Event. */
function nameHash(e: ClusterEvent): string {
  const { kind, namespace, name, uid } = e.involved;
  return createHash('sha256')
    .update([kind, namespace ?? '', name, uid ?? '', e.type, e.reason, e.message].join('\u0000'))
    .digest('hex')
    .slice(0, 16);
}
