// Watch streams: newline-delimited JSON events over a chunked response. A too-old resourceVersion is
// answered as the API server does, with 200 and an ERROR event carrying a 410 Expired Status.
import type { ServerResponse } from 'node:http';
import type { Route } from './routes.ts';
import { parseFieldSelector, parseLabelSelector } from './selectors.ts';
import { StatusError } from './status.ts';
import type { Store } from './store.ts';

export function serveWatch(
  store: Store,
  r: Route,
  q: URLSearchParams,
  res: ServerResponse,
  expired: 'event' | 'status' = 'event',
): void {
  const labels = parseLabelSelector(q.get('labelSelector'));
  const fields = parseFieldSelector(q.get('fieldSelector'));
  const name = r.name;
  const line = (event: unknown): void => void res.write(`${JSON.stringify(event)}\n`);
  let unsubscribe = (): void => {};
  let started = false;
  const start = (): void => {
    if (!started) res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
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
          line({ type: e.type, object: e.object });
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
  // Bookmarks let a catch-up know it has seen everything up to "now" (the API server sends them
  // periodically and before a watch times out; the emulator sends one as soon as the replay is done).
  if (q.get('allowWatchBookmarks') === 'true')
    line({
      type: 'BOOKMARK',
      object: {
        kind: r.type.kind,
        apiVersion: r.type.group ? `${r.type.group}/${r.type.version}` : r.type.version,
        metadata: { resourceVersion: store.resourceVersion },
      },
    });
  const timeout = Number(q.get('timeoutSeconds') ?? 1800);
  const timer = setTimeout(() => res.end(), timeout * 1000);
  res.on('close', () => {
    clearTimeout(timer);
    unsubscribe();
  });
}
