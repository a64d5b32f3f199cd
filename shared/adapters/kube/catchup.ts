// Warm-container catch-up: WATCH one kind from the resourceVersion of the last read and collect the
// events up to the first BOOKMARK (everything before it has been delivered) or the watch's end. A
// real API server bookmarks late (about once a minute, 2 s before the timeout, none for a timeout of
// 2 s or less), so the end of the stream is as good an end as a bookmark: the resourceVersion to resume
// from is then the last event's. If the server never ends the stream, a client timer ends it; an event line
// longer than the cap, or one that is not JSON, fails the catch-up (watch-stream.ts) and the kind is re-listed.
import { ApiError } from '../../ports/cluster/errors.ts';
import type { KubeClients } from './client.ts';
import { statusOf, WatchExpiredError } from './errors.ts';
import type { KindSpec } from './kinds.ts';
import { DEFAULT_MAX_WATCH_EVENT_BYTES, openWatch } from './watch-stream.ts';

export interface RawEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: Record<string, unknown>;
}

export interface CatchUp {
  readonly events: readonly RawEvent[];
  readonly resourceVersion: string;
}

const rvOf = (o: unknown): string | undefined => {
  const rv = (o as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
  return typeof rv === 'string' ? rv : undefined;
};

/** How long past its own timeoutSeconds a watch may run before the client ends it. */
const CLIENT_SLACK_MS = 5_000;

export function catchUp(
  c: KubeClients,
  spec: KindSpec,
  fromRv: string,
  timeoutSeconds: number,
): Promise<CatchUp> {
  return new Promise((resolve, reject) => {
    const events: RawEvent[] = [];
    let rv = fromRv;
    let finished = false;
    let stop: (() => void) | undefined;
    // Events seen so far are a prefix of the kind's history: ending here is stale, never wrong.
    const timer = setTimeout(() => finish(), timeoutSeconds * 1000 + CLIENT_SLACK_MS);
    const finish = (err?: unknown): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      stop?.();
      if (err) reject(err);
      else resolve({ events, resourceVersion: rv });
    };
    const onEvent = (type: string, object: unknown): void => {
      if (type === 'ERROR') {
        const status = object as { code?: number; reason?: string; message?: string };
        if (status.code === 410) finish(new WatchExpiredError(spec.kind, fromRv));
        else
          finish(
            new ApiError(
              undefined,
              status.code ?? 500,
              status.reason ?? 'Unknown',
              `watch ${spec.path}: ${status.message ?? ''}`,
            ),
          );
        return;
      }
      rv = rvOf(object) ?? rv;
      if (type === 'BOOKMARK') finish();
      else if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED')
        events.push({ type, object: object as Record<string, unknown> });
    };
    const onDone = (err: unknown): void => {
      if (!err) return finish();
      if (statusOf(err)?.code === 410)
        return finish(new WatchExpiredError(spec.kind, fromRv, { cause: err }));
      const s = statusOf(err);
      finish(
        s
          ? new ApiError(undefined, s.code, s.reason || 'Unknown', `watch ${spec.path}: ${s.message}`, {
              cause: err,
            })
          : err,
      );
    };
    openWatch(c.config, {
      what: `watch ${spec.path} (${spec.kind})`,
      path: spec.path,
      query: { resourceVersion: fromRv, allowWatchBookmarks: true, timeoutSeconds },
      maxEventBytes: c.limits?.maxWatchEventBytes ?? DEFAULT_MAX_WATCH_EVENT_BYTES,
      onEvent,
      onDone,
    }).then((abort) => {
      stop = abort;
      if (finished) abort();
    }, finish);
  });
}
