// SnapshotStore port: one sweep's input written once as an object and read by every census worker
// (docs/mechanisms/census.md#fan-out), so every shard judges the same snapshot.
export interface SnapshotStore {
  put(key: string, body: string): Promise<void>;
  /** The object's text; throws SnapshotNotFoundError when no object has this key. */
  get(key: string): Promise<string>;
  /** Removes the object; removing a missing one is no error. */
  delete(key: string): Promise<void>;
}

/** No object has the key: it was never written, or it was removed (a worker delivered after its sweep ended). */
export class SnapshotNotFoundError extends Error {
  override readonly name = 'SnapshotNotFoundError';
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`no census snapshot object at ${key}`, options);
  }
}
