// The SnapshotStore over @aws-sdk/client-s3: PutObject, GetObject, DeleteObject in one bucket; S3's NoSuchKey
// becomes SnapshotNotFoundError, every other failure is thrown as it came.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { SnapshotNotFoundError, type SnapshotStore } from '../../ports/snapshot-store.ts';

export interface S3ClientOptions {
  readonly region: string;
  /** http://127.0.0.1:PORT for the local emulator (path-style addressing); omitted in AWS. */
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** Built once per container; three SDK attempts, bounded request time (a snapshot is a few MB at most). */
export function createS3Client(o: S3ClientOptions): S3Client {
  return new S3Client({
    region: o.region,
    ...(o.endpoint ? { endpoint: o.endpoint, forcePathStyle: true } : {}),
    ...(o.credentials ? { credentials: o.credentials } : {}),
    maxAttempts: 3,
    requestHandler: { requestTimeout: 30_000, connectionTimeout: 3_000, throwOnRequestTimeout: true },
  });
}

export class S3SnapshotStore implements SnapshotStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: 'application/json' }),
    );
  }

  async get(key: string): Promise<string> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) throw new SnapshotNotFoundError(key);
      return await out.Body.transformToString('utf8');
    } catch (err: unknown) {
      if (err instanceof NoSuchKey) throw new SnapshotNotFoundError(key, { cause: err });
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
