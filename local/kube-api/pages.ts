// LIST pagination of the emulator, as kube-apiserver pages: every page of one LIST reads the snapshot the first
// page saw (its resourceVersion), a continue token names that snapshot and the last key read, a compacted or
// forgotten snapshot is 410 Expired, and (option `shortPages`) a page may hold fewer items than `limit`, even none.
import { statusError } from './status.ts';
import type { KubeObject } from './selectors.ts';

/** kube-apiserver's answer to a continue token whose snapshot etcd has compacted away. */
export const expiredContinue = () =>
  statusError(
    410,
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
  );

interface Token {
  readonly rv: string;
  readonly after: string;
  readonly snap: number;
}

const encodeContinue = (t: Token): string => Buffer.from(JSON.stringify(t)).toString('base64url');
function decodeContinue(token: string): Token {
  try {
    const p = JSON.parse(Buffer.from(token, 'base64url').toString()) as Partial<Record<keyof Token, unknown>>;
    if (typeof p.rv === 'string' && typeof p.after === 'string' && typeof p.snap === 'number')
      return { rv: p.rv, after: p.after, snap: p.snap };
  } catch {
    // fall through to the error below
  }
  throw statusError(400, 'BadRequest', 'continue key is not valid');
}

/** First index whose key sorts after `after`. */
export function lowerBound(keys: readonly string[], after: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What one LIST reads: the candidate keys in order and the object each key held when the LIST began. */
export interface Snapshot {
  readonly resource: string;
  readonly rv: string;
  readonly keys: readonly string[];
  readonly objects: ReadonlyMap<string, KubeObject>;
}

export interface PageQuery {
  readonly match?: (o: KubeObject) => boolean;
  /** Keys outside the namespace are skipped (a namespaced LIST). */
  readonly prefix: string;
  readonly limit?: number;
  readonly continue?: string;
}

export interface Page {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
}

/** mulberry32: a small seeded generator, so that a test's short pages come out the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Snapshots kept for continue tokens; an older one is forgotten and its token gets 410, as after a compaction. */
const SNAPSHOTS_KEPT = 256;

export class Pager {
  private readonly snapshots = new Map<number, Snapshot>();
  private next = 1;
  private readonly random: (() => number) | undefined;

  /** `shortPages`: serve pages of a random size in [0, limit] (seeded), as a real server may. */
  constructor(shortPages?: { readonly seed: number }) {
    this.random = shortPages ? seeded(shortPages.seed) : undefined;
  }

  /** Every snapshot goes (store.compact): their continue tokens now get 410. */
  forget(): void {
    this.snapshots.clear();
  }

  /**
   * One page. The first page reads `take()` (the live state); when it leaves more to read, that state is kept,
   * and every later page reads it: an object created after page one never appears, one deleted still does.
   */
  page(resource: string, take: () => Snapshot, q: PageQuery): Page {
    const token = q.continue ? decodeContinue(q.continue) : undefined;
    const snap = token ? this.snapshots.get(token.snap) : take();
    if (!snap) throw expiredContinue();
    if (snap.resource !== resource) throw statusError(400, 'BadRequest', 'continue key is not valid');
    const limit = q.limit && q.limit > 0 ? q.limit : Infinity;
    const want = this.random && limit !== Infinity ? Math.floor(this.random() * (limit + 1)) : limit;
    const items: KubeObject[] = [];
    let i = token ? lowerBound(snap.keys, token.after) : 0;
    // `last`: the last key read, where the next page resumes (items filtered out are read too).
    let last = token?.after ?? '';
    for (; i < snap.keys.length && items.length < want; i++) {
      const key = snap.keys[i] as string;
      last = key;
      if (q.prefix && !key.startsWith(q.prefix)) continue;
      const obj = snap.objects.get(key) as KubeObject;
      if (!q.match || q.match(obj)) items.push(obj);
    }
    if (i >= snap.keys.length) return { items, resourceVersion: snap.rv };
    const id = token?.snap ?? this.keep(snap);
    return {
      items,
      resourceVersion: snap.rv,
      continue: encodeContinue({ rv: snap.rv, after: last, snap: id }),
    };
  }

  /** The first page read the live state; what later pages read is fixed now (sorted-key arrays are never mutated). */
  private keep(live: Snapshot): number {
    const objects = new Map(live.keys.map((k) => [k, live.objects.get(k) as KubeObject] as const));
    const id = this.next++;
    this.snapshots.set(id, { ...live, objects });
    if (this.snapshots.size > SNAPSHOTS_KEPT)
      this.snapshots.delete(this.snapshots.keys().next().value as number);
    return id;
  }
}
