import type { Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import type { BlobStore } from './blob-store.js';
import { isSealed, openBlob, sealBlob } from './blob-encryption.js';
import type { DataKeys } from './data-keys.js';

/** `verif/<tenant>/<verification>/...`: the verification a storage key belongs to. */
const VERIFICATION_KEY = /^verif\/[^/]+\/([^/]+)(?:\/|$)/;

function verificationOf(key: string): string {
  const id = VERIFICATION_KEY.exec(key)?.[1];
  if (!id) throw new Error('Invalid blob key');
  return id;
}

/**
 * Any blob store, with every image sealed under its verification's data key before it is stored
 * and opened after it is read (blob-encryption.ts). Objects stored before encryption existed
 * (no seal) are read as they are. Deleting a verification's folder also destroys its data key.
 */
export class EncryptedBlobStore implements BlobStore {
  constructor(
    private readonly inner: BlobStore,
    private readonly keys: DataKeys,
  ) {}

  async put(key: string, bytes: Buffer, within?: Transaction<Database>): Promise<void> {
    const dataKey = await this.keys.forWriting(verificationOf(key), within);
    await this.inner.put(key, sealBlob(dataKey, key, bytes));
  }

  async get(key: string): Promise<Buffer | null> {
    const stored = await this.inner.get(key);
    if (!stored || !isSealed(stored)) return stored;
    const dataKey = await this.keys.forReading(verificationOf(key));
    // Its key destroyed (erased): the image is gone, whatever bytes remain.
    return dataKey ? openBlob(dataKey, key, stored) : null;
  }

  exists(key: string): Promise<boolean> {
    return this.inner.exists(key);
  }

  async deletePrefix(prefix: string): Promise<void> {
    const id = VERIFICATION_KEY.exec(prefix)?.[1];
    if (id) await this.keys.destroy(id);
    await this.inner.deletePrefix(prefix);
  }

  ready(): Promise<boolean> {
    return this.inner.ready();
  }
}
