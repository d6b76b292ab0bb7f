import { sql, type Kysely } from 'kysely';

/**
 * The dashboard's Overview (decisions.md "Dashboard"): one aggregate query per chart, each an
 * index-only range read of one tenant's mode and period, never a scan of the whole table.
 * - outcomes by day, time to verdict and top reasons read the period's finished verifications
 *   from `verifications_outcomes_idx`, whose INCLUDE columns hold everything those three need;
 * - the review backlog is a partial index of the verifications waiting for a reviewer (small,
 *   oldest first), which the review queue's page reads too;
 * - failing webhook deliveries: a partial index of the deliveries not delivered.
 * Built once when the migration runs (about 2 s per million verifications).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index verifications_outcomes_idx on verifications (tenant_id, mode, completed_at)
    include (status, verdict, submitted_at, reasons) where completed_at is not null`.execute(db);
  await sql`create index verifications_review_backlog_idx on verifications (tenant_id, mode, completed_at, id)
    where status = 'completed' and verdict = 'review' and review_decision is null`.execute(db);
  await sql`create index webhook_deliveries_undelivered_idx on webhook_deliveries (tenant_id, updated_at)
    include (status, attempts, last_status_code) where status <> 'delivered'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists webhook_deliveries_undelivered_idx`.execute(db);
  await sql`drop index if exists verifications_review_backlog_idx`.execute(db);
  await sql`drop index if exists verifications_outcomes_idx`.execute(db);
}
