import { OVERVIEW_TOP_REASONS, type Mode, type OverviewDay, type OverviewPeriod, type OverviewResponse } from '@service/contract';
import { sql, type RawBuilder } from 'kysely';
import type { AppDeps } from '../app-deps.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
/** PostgreSQL's count(*) is a bigint: node-postgres hands it over as a string. */
const n = (v: string | number | null | undefined) => Number(v ?? 0);
/** Seconds to the millisecond (a test-mode verdict takes a few). */
const ms = (s: number | string | null) => (s === null ? null : Math.round(Number(s) * 1000) / 1000);

/** 00:00 UTC of the period's first day: the period is `days` UTC days, the last of them today. */
export function periodStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

type Row<T> = RawBuilder<T>;
interface DayRow {
  day: string;
  approved: string;
  review: string;
  rejected: string;
  failed: string;
}
interface ReasonRow {
  reason: string;
  count: string;
}
interface TimingRow {
  count: string;
  median: number | null;
  p95: number | null;
}
interface BacklogRow {
  count: string;
  id: string | null;
  completed_at: Date | null;
}
interface DeliveriesRow {
  retrying: string;
  failed: string;
  last_at: Date | null;
  last_code: number | null;
  last_error: string | null;
}

/**
 * The Overview's statements: one aggregate per chart, each a range of an index made for it
 * (migration 005), so none reads more than the tenant's mode and period however large the table.
 * Exported so a test can check each plan uses its index.
 */
export function overviewStatements(tenantId: string, mode: Mode, from: Date) {
  const finished = sql`tenant_id = ${tenantId} and mode = ${mode} and completed_at is not null and completed_at >= ${from}`;
  const waiting = sql`tenant_id = ${tenantId} and mode = ${mode} and status = 'completed' and verdict = 'review' and review_decision is null`;
  return {
    perDay: sql<DayRow>`
      select to_char(completed_at at time zone 'UTC', 'YYYY-MM-DD') as day,
        count(*) filter (where status = 'completed' and verdict = 'approved') as approved,
        count(*) filter (where status = 'completed' and verdict = 'review') as review,
        count(*) filter (where status = 'completed' and verdict = 'rejected') as rejected,
        count(*) filter (where status = 'failed') as failed
      from verifications where ${finished}
      group by 1` as Row<DayRow>,
    topReasons: sql<ReasonRow>`
      select r.reason, count(*) as count
      from verifications v cross join lateral jsonb_array_elements_text(v.reasons) as r(reason)
      where ${finished} and v.status = 'completed'
      group by r.reason order by count(*) desc, r.reason limit ${OVERVIEW_TOP_REASONS}` as Row<ReasonRow>,
    timeToVerdict: sql<TimingRow>`
      select count(*) as count,
        percentile_cont(0.5) within group (order by extract(epoch from completed_at - submitted_at)) as median,
        percentile_cont(0.95) within group (order by extract(epoch from completed_at - submitted_at)) as p95
      from verifications where ${finished} and status = 'completed' and submitted_at is not null` as Row<TimingRow>,
    reviewBacklog: sql<BacklogRow>`
      select (select count(*) from verifications where ${waiting}) as count, o.id, o.completed_at
      from (select 1) as one left join lateral (
        select id, completed_at from verifications where ${waiting} order by completed_at, id limit 1
      ) as o on true` as Row<BacklogRow>,
    // Retrying: pending after a failed attempt. Failed: gave up within the period. The latest of
    // them says when and how the receiver last failed.
    failingDeliveries: sql<DeliveriesRow>`
      with failing as (
        select status, updated_at, last_status_code, last_error from webhook_deliveries
        where tenant_id = ${tenantId} and status <> 'delivered'
          and ((status = 'pending' and attempts > 0) or (status = 'failed' and updated_at >= ${from}))
      ), latest as (select * from failing order by updated_at desc limit 1)
      select (select count(*) from failing where status = 'pending') as retrying,
        (select count(*) from failing where status = 'failed') as failed,
        (select updated_at from latest) as last_at,
        (select last_status_code from latest) as last_code,
        (select last_error from latest) as last_error` as Row<DeliveriesRow>,
  };
}

/**
 * The Overview's figures for one tenant, mode and period. The statements run at once, each on
 * its own pooled connection. `deliveries: false` (a reviewer) leaves the webhook figures out.
 */
export async function overview(
  deps: AppDeps,
  tenantId: string,
  mode: Mode,
  days: OverviewPeriod,
  opts: { deliveries: boolean },
): Promise<OverviewResponse> {
  const db = deps.db;
  // The database's clock (tests move it), read once so every chart shares one period.
  const { now } = (await sql<{ now: Date }>`select ${deps.clock.now()} as now`.execute(db)).rows[0]!;
  const from = periodStart(now, days);
  const q = overviewStatements(tenantId, mode, from);
  const [perDay, reasons, timing, backlog, deliveries] = await Promise.all([
    q.perDay.execute(db),
    q.topReasons.execute(db),
    q.timeToVerdict.execute(db),
    q.reviewBacklog.execute(db),
    opts.deliveries ? q.failingDeliveries.execute(db) : null,
  ]);

  const byDay = new Map(perDay.rows.map((r) => [r.day, r]));
  const series: OverviewDay[] = [];
  for (let t = from.getTime(); t <= now.getTime(); t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    const r = byDay.get(date);
    series.push({ date, approved: n(r?.approved), review: n(r?.review), rejected: n(r?.rejected), failed: n(r?.failed) });
  }
  const totals = { approved: 0, review: 0, rejected: 0, failed: 0, total: 0 };
  for (const d of series) {
    totals.approved += d.approved;
    totals.review += d.review;
    totals.rejected += d.rejected;
    totals.failed += d.failed;
  }
  totals.total = totals.approved + totals.review + totals.rejected + totals.failed;

  const t = timing.rows[0]!;
  const b = backlog.rows[0]!;
  const f = deliveries?.rows[0];
  return {
    mode,
    days,
    from: from.toISOString(),
    to: new Date(now).toISOString(),
    perDay: series,
    totals,
    topReasons: reasons.rows.map((r) => ({ reason: r.reason, count: n(r.count) })),
    timeToVerdict: { count: n(t.count), medianSeconds: ms(t.median), p95Seconds: ms(t.p95) },
    reviewBacklog: {
      count: n(b.count),
      oldest: b.id && b.completed_at ? { verificationId: b.id, waitingSince: iso(b.completed_at)! } : null,
    },
    failingDeliveries: f
      ? {
          retrying: n(f.retrying),
          failed: n(f.failed),
          lastFailureAt: iso(f.last_at),
          lastStatusCode: f.last_code,
          lastError: f.last_error,
        }
      : null,
  };
}
