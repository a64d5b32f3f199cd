// An in-memory SnapshotStore for unit tests: objects by key, a missing key is SnapshotNotFoundError as in S3.
import { SnapshotNotFoundError, type SnapshotStore } from '../../ports/snapshot-store.ts';

export class MemorySnapshotStore implements SnapshotStore {
  readonly objects = new Map<string, string>();
  async put(key: string, body: string): Promise<void> {
    this.objects.set(key, body);
  }
  async get(key: string): Promise<string> {
    const body = this.objects.get(key);
    if (body === undefined) throw new SnapshotNotFoundError(key);
    return body;
  }
  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }
}
