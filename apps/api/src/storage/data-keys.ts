import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { masterKeyId, newDataKey, unwrapDataKey, wrapDataKey } from './blob-encryption.js';

/**
 * The data keys of verifications' images, stored wrapped in `blob_data_keys`. A verification's key
 * is made on its first image; any process holding the same master key can unwrap it.
 */
export class DataKeys {
  private readonly masterId: string;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly masterKey: Buffer,
  ) {
    this.masterId = masterKeyId(masterKey);
  }

  /** The verification's data key, made (once, whatever races) when it has none yet. */
  async forWriting(verificationId: string, within: Kysely<Database> = this.db): Promise<Buffer> {
    const existing = await this.forReading(verificationId, within);
    if (existing) return existing;
    const wrapped = wrapDataKey(this.masterKey, verificationId, newDataKey());
    await within
      .insertInto('blob_data_keys')
      .values({ verification_id: verificationId, master_key_id: this.masterId, wrapped_key: wrapped })
      .onConflict((oc) => oc.column('verification_id').doNothing())
      .execute();
    // Another process may have won the insert: its key is the one.
    const key = await this.forReading(verificationId, within);
    if (!key) throw new Error('data key vanished as it was made');
    return key;
  }

  /** The verification's data key, or null when it has none (nothing stored, or erased). */
  async forReading(verificationId: string, within: Kysely<Database> = this.db): Promise<Buffer | null> {
    const row = await within
      .selectFrom('blob_data_keys')
      .select(['wrapped_key', 'master_key_id'])
      .where('verification_id', '=', verificationId)
      .executeTakeFirst();
    if (!row) return null;
    if (row.master_key_id !== this.masterId) throw new Error(`data key wrapped by another master key (${row.master_key_id})`);
    return unwrapDataKey(this.masterKey, verificationId, row.wrapped_key);
  }

  /** Crypto-shredding: without its key, a verification's images open nowhere. */
  async destroy(verificationId: string): Promise<void> {
    await this.db.deleteFrom('blob_data_keys').where('verification_id', '=', verificationId).execute();
  }
}
