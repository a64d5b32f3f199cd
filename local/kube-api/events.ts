// One resource's bounded event history and live watchers: a watch from resourceVersion N replays the
// events after N, or fails with 410 Gone when N is older than what the log still holds.
import type { KubeObject } from './selectors.ts';
import { statusError } from './status.ts';

export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: KubeObject;
  readonly rv: number;
}

export interface Watcher {
  send(event: WatchEvent): void;
}

export class EventLog {
  private events: WatchEvent[] = [];
  /** Events at or below this resourceVersion are gone. */
  private compactedAt = 0;
  private readonly watchers = new Set<Watcher>();

  append(event: WatchEvent, limit: number): void {
    this.events.push(event);
    if (this.events.length > limit) {
      const dropped = this.events.splice(0, this.events.length - limit);
      this.compactedAt = dropped[dropped.length - 1]?.rv ?? this.compactedAt;
    }
    for (const w of this.watchers) w.send(event);
  }

  compact(rv: number): void {
    this.events = [];
    this.compactedAt = rv;
  }

  subscribe(watcher: Watcher, fromRv: number): () => void {
    if (!Number.isFinite(fromRv)) throw statusError(400, 'BadRequest', 'invalid resourceVersion');
    if (fromRv < this.compactedAt)
      throw statusError(410, 'Expired', `too old resource version: ${fromRv} (${this.compactedAt})`);
    // The log is in resourceVersion order: a catch-up replays its tail, found by binary search rather than
    // by testing every event kept (a warm reader catches up every minute on a log of tens of thousands).
    for (let i = firstAfter(this.events, fromRv); i < this.events.length; i++)
      watcher.send(this.events[i] as WatchEvent);
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
}

/** Index of the first event with a resourceVersion above `rv` (events are appended in increasing order). */
function firstAfter(events: readonly WatchEvent[], rv: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((events[mid] as WatchEvent).rv <= rv) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
