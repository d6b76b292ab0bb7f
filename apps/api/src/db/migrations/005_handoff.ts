import { sql, type Kysely } from 'kysely';

/**
 * Continue on a phone (decisions.md): a verification's handoff links. Every secret is kept as its
 * SHA-256 only (the code, the desktop's upload token that asked for it, the phone's session),
 * as upload tokens and keys are: each is 128+ random bits, so a fast hash is safe and indexable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('handoff_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('verification_id', 'text', (c) => c.notNull().references('verifications.id').onDelete('cascade'))
    // The desktop polls and cancels with the upload token it had; the phone's claim replaces the verification's.
    .addColumn('desktop_token_hash', 'text', (c) => c.notNull())
    .addColumn('options', 'jsonb', (c) => c.notNull())
    .addColumn('session_hash', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('handoff_codes_desktop_token').on('handoff_codes').column('desktop_token_hash').execute();
  await db.schema.createIndex('handoff_codes_verification').on('handoff_codes').column('verification_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('handoff_codes').execute();
}
