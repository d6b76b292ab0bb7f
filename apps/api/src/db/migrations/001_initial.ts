import { sql, type Kysely } from 'kysely';

/** Written once with the schema builder: runs unchanged on PostgreSQL and on PGlite. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`credits >= 0`),
    )
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('allowed_origins', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('api_keys_tenant_idx').on('api_keys').column('tenant_id').execute();

  await db.schema
    .createTable('verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('upload_token_hash', 'text', (c) => c.notNull())
    .addColumn('user_ref', 'text')
    .addColumn('submitted_full_name', 'text')
    .addColumn('country', 'text')
    .addColumn('document_type', 'text')
    .addColumn('active_liveness', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('slots_expire_at', 'timestamptz', (c) => c.notNull())
    .addColumn('intent_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text')
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('with_doc_back', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('verdict', 'text')
    .addColumn('scores', 'jsonb')
    .addColumn('reasons', 'jsonb')
    .addColumn('fields_extracted', 'jsonb')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('failure_code', 'text')
    .addColumn('review_decision', 'text')
    .addColumn('review_note', 'text')
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('charged', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('liveness_steps_issued', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('verifications_tenant_idx').on('verifications').columns(['tenant_id', 'created_at']).execute();

  await db.schema
    .createTable('verification_uploads')
    .addColumn('verification_id', 'text', (c) => c.notNull().references('verifications.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('capture_source', 'text')
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('verification_uploads_pk', ['verification_id', 'role'])
    .execute();

  await db.schema
    .createTable('liveness_steps')
    .addColumn('verification_id', 'text', (c) => c.notNull().references('verifications.id').onDelete('cascade'))
    .addColumn('step', 'integer', (c) => c.notNull())
    .addColumn('pose', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('liveness_steps_pk', ['verification_id', 'step'])
    .execute();

  // Unlogged: counters need no crash durability (a crash just resets a one-minute window), and
  // skipping the WAL makes the per-request upserts far cheaper.
  await db.schema
    .createTable('rate_limit_buckets')
    .modifyFront(sql`unlogged`)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_buckets_pk', ['key', 'bucket'])
    .execute();
  await db.schema.createIndex('rate_limit_buckets_bucket_idx').on('rate_limit_buckets').column('bucket').execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('verification_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('round_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_tenant_idx').on('webhook_deliveries').columns(['tenant_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_events',
    'rate_limit_buckets',
    'liveness_steps',
    'verification_uploads',
    'verifications',
    'api_keys',
    'tenants',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
