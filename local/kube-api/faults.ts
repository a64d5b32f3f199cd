// Views that lag, for the tests of kraftsman's absence rules (docs/mechanisms/identity.md#absence), built on
// the emulator's `inject` hook: a watch that answers 200 with no body (a proxy that ends it at once), and a LIST
// served from a stale cache that does not hold some objects yet. Each returns the function that lifts it.
import type { KubeApiEmulator } from './server.ts';
import type { KubeObject } from './store.ts';

/** Every WATCH of the kind answers 200 with an empty body: no event, no bookmark, the stream just ends. */
export function emptyWatches(emulator: KubeApiEmulator, kind: string): () => void {
  return lift(emulator, (verb, route) =>
    verb === 'watch' && route.type.kind === kind ? { code: 200, body: '' } : undefined,
  );
}

/**
 * Every LIST of the kind answers from a view that lacks the objects `hidden` picks (a lagging cache), and
 * every WATCH of it ends at once with no event, so a warm reader catches up on nothing. A GET still answers
 * from the store, as a quorum read does.
 */
export function staleView(
  emulator: KubeApiEmulator,
  kind: string,
  hidden: (o: KubeObject) => boolean,
): () => void {
  return lift(emulator, (verb, route) => {
    if (route.type.kind !== kind) return undefined;
    if (verb === 'watch') return { code: 200, body: '' };
    if (verb !== 'list') return undefined;
    const t = route.type;
    const page = emulator.store.list(t, route.namespace);
    const body = {
      kind: `${t.kind}List`,
      apiVersion: t.group ? `${t.group}/${t.version}` : t.version,
      metadata: { resourceVersion: page.resourceVersion },
      items: page.items.filter((o) => !hidden(o)),
    };
    return { code: 200, body: JSON.stringify(body) };
  });
}

function lift(emulator: KubeApiEmulator, hook: KubeApiEmulator['inject'][number]): () => void {
  emulator.inject.push(hook);
  return () => {
    const i = emulator.inject.indexOf(hook);
    if (i >= 0) emulator.inject.splice(i, 1);
  };
}
