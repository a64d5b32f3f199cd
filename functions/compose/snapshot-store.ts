// Builds the census snapshot store over S3: one client per container (the census writes, its workers read).
import { createS3Client, S3SnapshotStore } from '../../shared/adapters/s3/snapshot-store.ts';
import type { Closer, Credentials } from './local.ts';

export interface SnapshotStoreSettings {
  readonly region: string;
  readonly bucket: string;
  /** The local S3 emulator (tests and the local fleet); AWS's own otherwise. */
  readonly endpoint?: string;
}

export function buildSnapshotStore(
  settings: SnapshotStoreSettings,
  credentials?: Credentials,
  closer?: Closer,
): S3SnapshotStore {
  const client = createS3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(credentials ? { credentials } : {}),
  });
  closer?.add(() => client.destroy());
  return new S3SnapshotStore(client, settings.bucket);
}
