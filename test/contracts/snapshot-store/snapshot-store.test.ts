// The SnapshotStore contract, run against the memory store and the S3 adapter talking to the local S3 emulator
// through the real @aws-sdk/client-s3 (path-style, S3's own NoSuchKey 404 XML).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySnapshotStore } from '../../../shared/adapters/memory/snapshot-store.ts';
import { createS3Client, S3SnapshotStore } from '../../../shared/adapters/s3/snapshot-store.ts';
import { SnapshotNotFoundError, type SnapshotStore } from '../../../shared/ports/snapshot-store.ts';
import { startS3Emulator, type S3Emulator } from '../../../local/s3/server.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

function contract(name: string, make: () => SnapshotStore) {
  describe(`SnapshotStore: ${name}`, () => {
    it('reads back what was put, byte for byte, and a second put replaces it', async () => {
      const store = make();
      const body = JSON.stringify({ nodes: ['ä', 'b'.repeat(200_000)] });
      await store.put('census/c1/run-1.json', body);
      expect(await store.get('census/c1/run-1.json')).toBe(body);
      await store.put('census/c1/run-1.json', '{}');
      expect(await store.get('census/c1/run-1.json')).toBe('{}');
    });

    it('says a missing key is missing, and deleting it twice is no error', async () => {
      const store = make();
      await store.put('census/c1/run-2.json', 'x');
      await store.delete('census/c1/run-2.json');
      await store.delete('census/c1/run-2.json');
      const err = await store.get('census/c1/run-2.json').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SnapshotNotFoundError);
      expect((err as Error).message).toBe('no census snapshot object at census/c1/run-2.json');
    });
  });
}

contract('memory', () => new MemorySnapshotStore());

let s3: S3Emulator;
beforeAll(async () => {
  s3 = await startS3Emulator(['snapshots']);
});
afterAll(async () => s3?.close());
const client = () => createS3Client({ region: 'us-east-1', endpoint: s3.endpoint, credentials });
contract('S3 emulator', () => new S3SnapshotStore(client(), 'snapshots'));

describe('S3 emulator wire errors', () => {
  it('answers a missing bucket with NoSuchBucket, which the adapter passes on unchanged', async () => {
    const err = await new S3SnapshotStore(client(), 'nope').get('k').catch((e: unknown) => e);
    expect((err as Error).name).toBe('NoSuchBucket');
    expect(s3.calls).toContain('GetObject nope/k');
  });
});
