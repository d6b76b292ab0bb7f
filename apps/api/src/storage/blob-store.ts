import type { Transaction } from 'kysely';
import type { Database } from '../db/types.js';

/**
 * Where images live, addressed by their slot key (`verif/<tenant>/<verification>/<role>.jpg`).
 * The local directory store is the default; a shared store (S3, GCS) implements the same calls.
 */
export interface BlobStore {
  /**
   * Stores the bytes at the key. `within`: the database transaction the write belongs to, for any
   * database work the store does (the encrypting store's data key), so a store never needs a second
   * connection while the caller holds one (the embedded database has only one).
   */
  put(key: string, bytes: Buffer, within?: Transaction<Database>): Promise<void>;
  /** null when nothing is stored at the key. */
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Removes every object under a prefix (e.g. one verification's folder). */
  deletePrefix(prefix: string): Promise<void>;
  /** For `/health/ready`: true when the store can be read and written now. Never throws. */
  ready(): Promise<boolean>;
}

/**
 * A store that could not be reached or answered with a server error (any store may throw it): a
 * request answers 503 `backend_unavailable`, a job waits for the store.
 */
export class BlobStoreUnavailableError extends Error {}
