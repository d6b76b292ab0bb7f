import type { Kysely } from 'kysely';

/**
 * Retention and erasure (decisions.md "Storage, retention and erasure"): when a verification's
 * images were deleted, when its personal data was erased, and when its tenant asked for both at
 * once (`POST /v1/verify/:id/redact`). The result record itself stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('verifications')
    .addColumn('images_deleted_at', 'timestamptz')
    .addColumn('personal_data_erased_at', 'timestamptz')
    .addColumn('redacted_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('verifications')
    .dropColumn('images_deleted_at')
    .dropColumn('personal_data_erased_at')
    .dropColumn('redacted_at')
    .execute();
}
