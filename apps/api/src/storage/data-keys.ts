import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { masterKeyId, newDataKey, unwrapDataKey, wrapDataKey } from './blob-encryption.js';

/**
 * The data keys of verifications' images, stored wrapped in `blob_data_keys`. A verification's key
 * is made on its first image; any process holding the same master key can unwrap it.
 */
export class DataKeys {
  /** The id of the key that wraps every new data key. */
  readonly masterId: string;
  private readonly previous: Map<string, Buffer>;

  /** `previous`: earlier master keys (a rotation in progress): what they wrapped still opens. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly masterKey: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    this.masterId = masterKeyId(masterKey);
    this.previous = new Map(previous.map((k) => [masterKeyId(k), k]));
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
    return unwrapDataKey(this.wrappingKey(row.master_key_id), verificationId, row.wrapped_key);
  }

  private wrappingKey(id: string): Buffer {
    const key = id === this.masterId ? this.masterKey : this.previous.get(id);
    // The id is a fingerprint of the key, never the key: safe to name.
    if (!key)
      throw new Error(`data key wrapped by a master key this process does not hold (${id}); set it in BLOB_ENCRYPTION_KEY_PREVIOUS`);
    return key;
  }

  /**
   * Rotation: re-wraps up to `limit` data keys of earlier master keys under the current one
   * (conditional on the old wrapping, so concurrent runs do each once). `remaining`: data keys
   * still under another key afterwards; `unknown`: those under a key this process does not hold.
   */
  async rewrap(limit = 1000): Promise<{ rewrapped: number; remaining: number; unknown: number }> {
    const rows = await this.db
      .selectFrom('blob_data_keys')
      .select(['verification_id', 'master_key_id', 'wrapped_key'])
      .where('master_key_id', '!=', this.masterId)
      .limit(limit)
      .execute();
    let rewrapped = 0;
    for (const r of rows) {
      const old = this.previous.get(r.master_key_id);
      if (!old) continue;
      const dataKey = unwrapDataKey(old, r.verification_id, r.wrapped_key);
      const done = await this.db
        .updateTable('blob_data_keys')
        .set({ master_key_id: this.masterId, wrapped_key: wrapDataKey(this.masterKey, r.verification_id, dataKey) })
        .where('verification_id', '=', r.verification_id)
        .where('master_key_id', '=', r.master_key_id)
        .executeTakeFirst();
      rewrapped += Number(done.numUpdatedRows);
    }
    const counts = await this.db
      .selectFrom('blob_data_keys')
      .select(['master_key_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('master_key_id', '!=', this.masterId)
      .groupBy('master_key_id')
      .execute();
    const remaining = counts.reduce((a, c) => a + Number(c.n), 0);
    const unknown = counts.filter((c) => !this.previous.has(c.master_key_id)).reduce((a, c) => a + Number(c.n), 0);
    return { rewrapped, remaining, unknown };
  }

  /** Crypto-shredding: without its key, a verification's images open nowhere. */
  async destroy(verificationId: string): Promise<void> {
    await this.db.deleteFrom('blob_data_keys').where('verification_id', '=', verificationId).execute();
  }
}
