import { sql, type Kysely } from 'kysely';

/**
 * One data key per verification for its stored images, kept only wrapped by the deployment's key
 * (storage/blob-encryption.ts). Deleting a row crypto-shreds that verification's images.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('blob_data_keys')
    .addColumn('verification_id', 'text', (c) => c.primaryKey())
    // Which master key wrapped it (a rotation re-wraps the rows of an older one).
    .addColumn('master_key_id', 'text', (c) => c.notNull())
    .addColumn('wrapped_key', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('blob_data_keys').execute();
}
