import { sql, type Kysely } from 'kysely';

/**
 * The dashboard's Overview (decisions.md "Dashboard"): one small aggregate query per chart, at a
 * million verifications as at ten.
 *
 * Outcomes per day, reasons per day and times to verdict per day are kept in three rollup tables
 * by statement triggers on `verifications`: each INSERT, UPDATE or DELETE adds what its new rows
 * contribute and takes away what its old rows did (transition tables, so a bulk write costs one
 * grouped upsert per table, and an update that changes no finished row's outcome, reasons or
 * times writes nothing). Every writer is counted, the service's code or an operator's SQL alike.
 * A chart then reads at most 90 days of one tenant's mode from a primary key: 90 rows for the
 * outcomes, a few hundred for reasons and times.
 *
 * Times to verdict are kept as a histogram of 4% wide buckets of milliseconds (bucket b holds
 * (1.04^(b-1), 1.04^b] ms), so a median or 95th percentile read from it is within 2%.
 *
 * The review backlog (now, any age) and failing webhook deliveries are partial indexes: small,
 * and the backlog's oldest item is its first entry.
 */
/** Upserts of what a set of rows contributes; `%s` stands for the query of `changes` (tenant_id, mode, day, status, verdict, reasons, bucket, delta). */
const UPSERTS = [
  `
      with changes as (%s)
      insert into overview_days as d (tenant_id, mode, day, approved, review, rejected, failed)
      select tenant_id, mode, day,
        coalesce(sum(delta) filter (where status = 'completed' and verdict = 'approved'), 0),
        coalesce(sum(delta) filter (where status = 'completed' and verdict = 'review'), 0),
        coalesce(sum(delta) filter (where status = 'completed' and verdict = 'rejected'), 0),
        coalesce(sum(delta) filter (where status = 'failed'), 0)
      from changes group by 1, 2, 3
      having sum(delta) filter (where status = 'completed' and verdict = 'approved') <> 0
        or sum(delta) filter (where status = 'completed' and verdict = 'review') <> 0
        or sum(delta) filter (where status = 'completed' and verdict = 'rejected') <> 0
        or sum(delta) filter (where status = 'failed') <> 0
      order by 1, 2, 3
      on conflict (tenant_id, mode, day) do update set
        approved = d.approved + excluded.approved, review = d.review + excluded.review,
        rejected = d.rejected + excluded.rejected, failed = d.failed + excluded.failed`,
  `
      with changes as (%s)
      insert into overview_day_latency as l (tenant_id, mode, day, bucket, count)
      select tenant_id, mode, day, bucket, sum(delta) from changes
      where status = 'completed' and bucket is not null
      group by 1, 2, 3, 4 having sum(delta) <> 0 order by 1, 2, 3, 4
      on conflict (tenant_id, mode, day, bucket) do update set count = l.count + excluded.count`,
  `
      with changes as (%s)
      insert into overview_day_reasons as r (tenant_id, mode, day, reason, count)
      select c.tenant_id, c.mode, c.day, x.reason, sum(c.delta) from changes c
      cross join lateral jsonb_array_elements_text(case when jsonb_typeof(c.reasons) = 'array' then c.reasons else '[]'::jsonb end) as x(reason)
      where c.status = 'completed'
      group by 1, 2, 3, 4 having sum(c.delta) <> 0 order by 1, 2, 3, 4
      on conflict (tenant_id, mode, day, reason) do update set count = r.count + excluded.count`,
];

/** A finished row's contribution: its UTC day, outcome, reasons and time-to-verdict bucket (4% wide, in ms). */
const CONTRIBUTION = `tenant_id, mode, (completed_at at time zone 'UTC')::date as day, status, verdict, reasons,
  case when submitted_at is not null then
    greatest(0, ceil(ln(greatest(extract(epoch from completed_at - submitted_at) * 1000, 1)) / ln(1.04)))::smallint end as bucket`;
const FINISHED = `completed_at is not null and status in ('completed', 'failed')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table overview_days (
    tenant_id text not null, mode text not null, day date not null,
    approved integer not null default 0, review integer not null default 0,
    rejected integer not null default 0, failed integer not null default 0,
    primary key (tenant_id, mode, day))`.execute(db);
  await sql`create table overview_day_reasons (
    tenant_id text not null, mode text not null, day date not null, reason text not null, count integer not null,
    primary key (tenant_id, mode, day, reason))`.execute(db);
  await sql`create table overview_day_latency (
    tenant_id text not null, mode text not null, day date not null, bucket smallint not null, count integer not null,
    primary key (tenant_id, mode, day, bucket))`.execute(db);

  // The transition tables are visible to this function's own statements only, so it runs the
  // upserts itself; written out per operation as static statements, whose plans are kept.
  const changes = {
    insert: `select ${CONTRIBUTION}, 1 as delta from new_rows where ${FINISHED}`,
    delete: `select ${CONTRIBUTION}, -1 as delta from old_rows where ${FINISHED}`,
    update: `select ${CONTRIBUTION}, 1 as delta from new_rows where ${FINISHED}
      union all select ${CONTRIBUTION}, -1 as delta from old_rows where ${FINISHED}`,
  };
  const apply = (op: keyof typeof changes) => UPSERTS.map((u) => `${u.replace('%s', changes[op])};`).join('\n');
  await sql
    .raw(
      `create function overview_rollup() returns trigger language plpgsql as $fn$
  begin
    -- Most writes change no finished row's figures (an intent created, a job started, a review
    -- decided, data erased): they cost this one look and write nothing.
    if tg_op = 'INSERT' then
      if exists (select 1 from new_rows where completed_at is not null) then
        ${apply('insert')}
      end if;
    elsif tg_op = 'DELETE' then
      if exists (select 1 from old_rows where completed_at is not null) then
        ${apply('delete')}
      end if;
    elsif exists (
      select 1 from new_rows n join old_rows o on o.id = n.id
      where (n.tenant_id, n.mode, n.status, n.verdict, n.reasons, n.completed_at, n.submitted_at)
        is distinct from (o.tenant_id, o.mode, o.status, o.verdict, o.reasons, o.completed_at, o.submitted_at)
    ) then
      ${apply('update')}
    end if;
    return null;
  end $fn$`,
    )
    .execute(db);

  for (const op of ['insert', 'update', 'delete'] as const) {
    const tables =
      op === 'insert' ? 'new table as new_rows' : op === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows';
    await sql
      .raw(
        `create trigger verifications_overview_${op} after ${op} on verifications referencing ${tables}
        for each statement execute function overview_rollup()`,
      )
      .execute(db);
  }

  // What was there before this migration.
  for (const u of UPSERTS) {
    await sql.raw(u.replace('%s', `select ${CONTRIBUTION}, 1 as delta from verifications where ${FINISHED}`)).execute(db);
  }

  await sql`create index verifications_review_backlog_idx on verifications (tenant_id, mode, completed_at, id)
    where status = 'completed' and verdict = 'review' and review_decision is null`.execute(db);
  await sql`create index webhook_deliveries_undelivered_idx on webhook_deliveries (tenant_id, updated_at)
    include (status, attempts, last_status_code) where status <> 'delivered'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists webhook_deliveries_undelivered_idx`.execute(db);
  await sql`drop index if exists verifications_review_backlog_idx`.execute(db);
  for (const op of ['insert', 'update', 'delete'])
    await sql.raw(`drop trigger if exists verifications_overview_${op} on verifications`).execute(db);
  await sql`drop function if exists overview_rollup()`.execute(db);
  await sql`drop table if exists overview_day_latency`.execute(db);
  await sql`drop table if exists overview_day_reasons`.execute(db);
  await sql`drop table if exists overview_days`.execute(db);
}
