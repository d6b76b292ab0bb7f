import { sql, type Kysely } from 'kysely';

/** The tenant dashboard: users, sessions, invites, sign-in failures and the audit log (PostgreSQL and PGlite). */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Keys are listed by prefix and last four characters; only a hash of the whole key is stored.
  await db.schema.alterTable('api_keys').addColumn('last_four', 'text').execute();

  await db.schema
    .createTable('dashboard_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    // Lower-cased on the way in; one account per email across the whole service (sign-in names no tenant).
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    // null until an invite is accepted.
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('dashboard_users_tenant_idx').on('dashboard_users').column('tenant_id').execute();

  await db.schema
    .createTable('dashboard_sessions')
    // SHA-256 of the cookie value: a database read never yields a usable session.
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_user_idx').on('dashboard_sessions').column('user_id').execute();

  await db.schema
    .createTable('dashboard_invites')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('dashboard_sign_in_failures')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sign_in_failures_email_idx').on('dashboard_sign_in_failures').columns(['email', 'at']).execute();

  await db.schema
    .createTable('dashboard_lockouts')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('locked_until', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('dashboard_audit_log')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'text')
    // Kept beside the id so the log still names who acted after a user is removed.
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('detail', 'jsonb')
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_audit_log_tenant_idx').on('dashboard_audit_log').columns(['tenant_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'dashboard_audit_log',
    'dashboard_lockouts',
    'dashboard_sign_in_failures',
    'dashboard_invites',
    'dashboard_sessions',
    'dashboard_users',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await db.schema.alterTable('api_keys').dropColumn('last_four').execute();
}
