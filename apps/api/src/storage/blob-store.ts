/**
 * Where images live, addressed by their slot key (`verif/<tenant>/<verification>/<role>.jpg`).
 * The local directory store is the default; a shared store (S3, GCS) implements the same four calls.
 */
export interface BlobStore {
  put(key: string, bytes: Buffer): Promise<void>;
  /** null when nothing is stored at the key. */
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Removes every object under a prefix (e.g. one verification's folder). */
  deletePrefix(prefix: string): Promise<void>;
}
