// A lagging status index for tests (test/support/dynamodb/README.md): a decorator over a StateStore (the
// DynamoDB adapter against DynamoDB Local, in practice) whose reads of the commands-by-status GSI — the open
// commands of loadPassState and listCommandsByStatus — answer as of `writes` command writes ago, as a GSI on
// AWS may (its reads are eventually consistent; ConsistentRead is refused on it). Every other read, the
// base-table ones included (getCommand, findCommandsByCandidate), stays strongly consistent, as on AWS.
//
// How: before each command write it forwards (admitCommand, confirmCommand, transitionCommand,
// recordCommandFailure) the decorator reads the index through the inner store and keeps that view. A read
// of the index then answers with the view kept before the `writes`-th most recent write (before the first
// one it kept when fewer writes went through), and the fresh index when nothing was written yet. Writes made
// through other store objects are seen only as the inner store's fresh reads show them.
import { COMMAND_STATUSES, OPEN_COMMAND_STATUSES } from '../../../shared/ports/state-store/command-states.ts';
import type { CommandStatus } from '../../../shared/ports/state-store/command-states.ts';
import type { StateStore } from '../../../shared/ports/state-store/index.ts';
import type { CommandRecord } from '../../../shared/ports/state-store/records.ts';

export interface IndexLag {
  /** How many command writes the index trails the table by (≥ 1). */
  readonly writes: number;
}

export interface LaggingIndex {
  readonly store: StateStore;
  /** Index reads answered from a stale view (not the fresh index). */
  readonly staleReads: () => number;
}

type IndexView = ReadonlyMap<CommandStatus, readonly CommandRecord[]>;

export function laggingIndex(inner: StateStore, lag: IndexLag): LaggingIndex {
  if (!Number.isInteger(lag.writes) || lag.writes < 1)
    throw new Error(`laggingIndex: writes must be a whole number ≥ 1, got ${lag.writes}`);
  const history = new Map<string, IndexView[]>();
  let stale = 0;

  const viewNow = async (cluster: string): Promise<IndexView> =>
    new Map(
      await Promise.all(
        COMMAND_STATUSES.map(async (s) => [s, await inner.listCommandsByStatus(cluster, s)] as const),
      ),
    );
  /** Keeps the index as it is right before a command write. */
  const beforeWrite = async (cluster: string): Promise<void> => {
    const kept = history.get(cluster) ?? [];
    kept.push(await viewNow(cluster));
    history.set(cluster, kept);
  };
  /** The view as of `lag.writes` writes ago, or undefined when nothing was written yet (fresh). */
  const lagged = (cluster: string): IndexView | undefined => {
    const kept = history.get(cluster) ?? [];
    if (kept.length === 0) return undefined;
    stale += 1;
    return kept[Math.max(0, kept.length - lag.writes)];
  };
  const overrides: Partial<StateStore> = {
    admitCommand: async (fence, command) => {
      await beforeWrite(fence.cluster);
      return inner.admitCommand(fence, command);
    },
    confirmCommand: async (fence, id, replacements) => {
      await beforeWrite(fence.cluster);
      return inner.confirmCommand(fence, id, replacements);
    },
    transitionCommand: async (cluster, id, from, to) => {
      await beforeWrite(cluster);
      return inner.transitionCommand(cluster, id, from, to);
    },
    recordCommandFailure: async (cluster, id, from, failure) => {
      await beforeWrite(cluster);
      return inner.recordCommandFailure(cluster, id, from, failure);
    },
    loadPassState: async (cluster) => {
      const fresh = await inner.loadPassState(cluster);
      const view = lagged(cluster);
      if (!view) return fresh;
      const open = OPEN_COMMAND_STATUSES.flatMap((s) => view.get(s) ?? []);
      return { ...fresh, openCommands: open.sort((a, b) => a.seq - b.seq) };
    },
    listCommandsByStatus: async (cluster, status) => {
      const view = lagged(cluster);
      return view ? [...(view.get(status) ?? [])] : inner.listCommandsByStatus(cluster, status);
    },
  };
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key in overrides) return overrides[key as keyof StateStore];
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, staleReads: () => stale };
}
