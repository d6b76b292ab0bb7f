import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { BlobStoreUnavailableError, type BlobStore } from './blob-store.js';

export interface S3BlobStoreOptions {
  /** Omitted for AWS itself; an S3-compatible server's URL otherwise (radosgw, MinIO, R2...). */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Omitted: the SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** A request that has not answered by then fails (the store unreachable is a 503, not a hang). */
  requestTimeoutMs?: number;
}

/**
 * Blobs as objects of one bucket, keyed by their slot keys. Path-style addressing and checksums
 * only when required, so non-AWS servers accept streamed writes (shared/notes/storage.md); the
 * bytes arrive already sealed by the encrypting store, so the server never sees an image.
 */
export class S3BlobStore implements BlobStore {
  private readonly s3: S3Client;
  private readonly bucket: string;

  constructor(opts: S3BlobStoreOptions) {
    this.bucket = opts.bucket;
    this.s3 = new S3Client({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Retries of the SDK stay (idempotent PUT/GET/DELETE of whole objects), bounded in time.
      maxAttempts: 3,
      requestHandler: {
        requestTimeout: opts.requestTimeoutMs ?? 10_000,
        connectionTimeout: Math.min(opts.requestTimeoutMs ?? 10_000, 3_000),
      },
    });
  }

  private async send<T>(what: () => Promise<T>): Promise<T> {
    try {
      return await what();
    } catch (err) {
      if (isMissing(err)) throw err;
      // Network errors and 5xx: the store is unavailable; the message names no key (keys hold ids only, but stay out of logs).
      throw new BlobStoreUnavailableError(`blob store unavailable: ${(err as Error).name}`);
    }
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.send(() => this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentLength: bytes.length })));
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const out = await this.send(() => this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.send(() => this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    const p = prefix.endsWith('/') ? prefix : `${prefix}/`;
    let token: string | undefined;
    do {
      const page = await this.send(() =>
        this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: p, ContinuationToken: token, MaxKeys: 1000 })),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length)
        await this.send(() => this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } })));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async ready(): Promise<boolean> {
    try {
      await this.s3.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return true;
    } catch {
      return false;
    }
  }

  destroy(): void {
    this.s3.destroy();
  }
}

function isMissing(err: unknown): boolean {
  if (err instanceof NoSuchKey || err instanceof NotFound) return true;
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
