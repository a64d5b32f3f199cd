// Watch streams: newline-delimited JSON events over a chunked response. A too-old resourceVersion is
// answered as the API server does, with 200 and an ERROR event carrying a 410 Expired Status.
// Bookmarks follow kube-apiserver's schedule by default (about once a minute and 2 s before the watch times out,
// never one older than the watch's own resourceVersion); `afterReplay: true` adds one right after the replay.
import type { ServerResponse } from 'node:http';
import type { Route } from './routes.ts';
import { parseFieldSelector, parseLabelSelector } from './selectors.ts';
import { StatusError } from './status.ts';
import type { Store } from './store.ts';
import type { WatchEvent } from './events.ts';

export interface BookmarkSchedule {
  /**
   * One bookmark as soon as the replay is sent: not what kube-apiserver does (default false), a fast mode for
   * tests and runs that would otherwise wait for the pre-timeout bookmark on every catch-up.
   */
  readonly afterReplay?: boolean;
  /** Later bookmarks, every this many ms (kube-apiserver's bookmarkFrequency, about a minute). */
  readonly everyMs?: number;
  /** Every bookmark is held back this long (ms): a server whose bookmarks arrive late. */
  readonly delayMs?: number;
}

/** kube-apiserver sends its last bookmark this long before a watch's timeout, and none after. */
const PRE_TIMEOUT_MS = 2_000;
const BOOKMARK_EVERY_MS = 60_000;

/**
 * Each event's line, encoded once for every watcher, as kube-apiserver's watch cache serializes an event once
 * per encoding rather than once per watcher: a fleet's six functions each catch up on the same pod events.
 * Stored objects are never changed in place (the store replaces them), so an event's line never goes stale.
 */
const lines = new WeakMap<WatchEvent, string>();
function encoded(e: WatchEvent): string {
  let l = lines.get(e);
  if (l === undefined) lines.set(e, (l = `${JSON.stringify({ type: e.type, object: e.object })}\n`));
  return l;
}

export function serveWatch(
  store: Store,
  r: Route,
  q: URLSearchParams,
  res: ServerResponse,
  options: { expired?: 'event' | 'status'; bookmarks?: BookmarkSchedule } = {},
): void {
  const expired = options.expired ?? 'event';
  const schedule = options.bookmarks ?? {};
  const labels = parseLabelSelector(q.get('labelSelector'));
  const fields = parseFieldSelector(q.get('fieldSelector'), r.type);
  const from = Number(q.get('resourceVersion') ?? 0) || 0;
  const name = r.name;
  // A watch that timed out (res.end) stays subscribed until 'close': events in between are not written.
  const line = (event: unknown): void => {
    if (!res.writableEnded) res.write(`${JSON.stringify(event)}\n`);
  };
  let unsubscribe = (): void => {};
  let started = false;
  // The headers go at once, as kube-apiserver flushes them when a watch opens: a client knows it is watching
  // before the first event, which may be a minute away now that bookmarks keep the server's schedule.
  const start = (): void => {
    if (!started) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
    }
    started = true;
  };
  try {
    unsubscribe = store.watch(
      r.type,
      {
        send: (e) => {
          if (r.namespace && e.object.metadata.namespace !== r.namespace) return;
          if (name && e.object.metadata.name !== name) return;
          if (!labels(e.object) || !fields(e.object)) return;
          start();
          if (!res.writableEnded) res.write(encoded(e));
        },
      },
      q.get('resourceVersion') ?? undefined,
    );
  } catch (err: unknown) {
    if (!(err instanceof StatusError) || expired === 'status') throw err;
    start();
    line({ type: 'ERROR', object: err.body() });
    res.end();
    return;
  }
  start();
  const timeoutMs = Number(q.get('timeoutSeconds') ?? 1800) * 1000;
  const timers: NodeJS.Timeout[] = [setTimeout(() => res.end(), timeoutMs)];
  // Bookmarks let a catch-up know it has seen everything up to "now".
  if (q.get('allowWatchBookmarks') === 'true') {
    // The watch cache sends a watcher no event below its starting resourceVersion, bookmarks included (cache_watcher.go): a
    // watch from a version the server has not reached yet gets none until the server passes it.
    const bookmark = (): void =>
      void (
        res.writableEnded ||
        Number(store.resourceVersion) < from ||
        line({
          type: 'BOOKMARK',
          object: {
            kind: r.type.kind,
            apiVersion: r.type.group ? `${r.type.group}/${r.type.version}` : r.type.version,
            metadata: { resourceVersion: store.resourceVersion },
          },
        })
      );
    const delay = schedule.delayMs ?? 0;
    const deadline = Date.now() + timeoutMs;
    const next = (from: number): void => {
      const at = Math.min(from + (schedule.everyMs ?? BOOKMARK_EVERY_MS), deadline - PRE_TIMEOUT_MS);
      if (at <= Date.now()) return;
      timers.push(
        setTimeout(
          () => {
            bookmark();
            next(at);
          },
          at - Date.now() + delay,
        ),
      );
    };
    if (schedule.afterReplay === true) {
      if (delay > 0) timers.push(setTimeout(bookmark, delay));
      else bookmark();
    }
    next(Date.now());
  }
  res.on('close', () => {
    for (const t of timers) clearTimeout(t);
    unsubscribe();
  });
}
