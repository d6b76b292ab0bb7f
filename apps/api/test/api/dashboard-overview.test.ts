import { OVERVIEW_TOP_REASONS, overviewResponseSchema, type OverviewResponse } from '@service/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketQuantile, LATENCY_BUCKET_RATIO, overviewStatements, periodStart } from '../../src/dashboard/overview.js';
import { Api, expectErrorShape, type TenantKeys } from '../helpers/api-client.js';
import { DashboardClient, dashboardUser } from '../helpers/dashboard-client.js';
import { FAILING_PIPELINE, startTestService, type TestService } from '../helpers/test-service.js';

// The Overview's figures over HTTP (decisions.md "Dashboard"): per day by outcome, shares, top
// reasons, time to verdict, the review backlog and failing webhook deliveries, for one tenant,
// mode and period; and that each chart's statement is a range of its index, never a table scan.
let svc: TestService;
let api: Api;
let a: TenantKeys;
let b: TenantKeys;
let adminA: DashboardClient;
let adminB: DashboardClient;
let seq = 0;

beforeAll(async () => {
  svc = await startTestService(
    {},
    {
      pipeline: FAILING_PIPELINE,
    },
  );
  api = new Api(svc.url);
  a = await api.tenant(10);
  b = await api.tenant(10);
  adminA = (await dashboardUser(api, a.tenantId, 'admin')).client;
  adminB = (await dashboardUser(api, b.tenantId, 'admin')).client;
});
afterAll(async () => {
  await svc?.close();
});

async function dbNow(): Promise<Date> {
  return (await sql<{ now: Date }>`select ${svc.deps.clock.now()} as now`.execute(svc.deps.db)).rows[0]!.now;
}

/** A finished verification written straight to the table: `ago` seconds before now, `took` seconds after its submit. */
async function seed(
  tenantId: string,
  o: { mode?: 'live' | 'test'; verdict?: 'approved' | 'review' | 'rejected' | null; reasons?: string[]; ago: number; took: number },
) {
  const now = await dbNow();
  const completed = new Date(now.getTime() - o.ago * 1000);
  const id = `vf_overview${String(++seq).padStart(8, '0')}`;
  await svc.deps.db
    .insertInto('verifications')
    .values({
      id,
      tenant_id: tenantId,
      mode: o.mode ?? 'live',
      upload_token_hash: 'x',
      active_liveness: false,
      created_at: new Date(completed.getTime() - o.took * 1000 - 5000),
      slots_expire_at: completed,
      intent_expires_at: completed,
      submitted_at: new Date(completed.getTime() - o.took * 1000),
      status: o.verdict === null ? 'failed' : 'completed',
      verdict: o.verdict ?? null,
      reasons: o.verdict === null ? null : JSON.stringify(o.reasons ?? []),
      failure_code: o.verdict === null ? 'pipeline_error' : null,
      completed_at: completed,
    })
    .execute();
  return id;
}

const get = async (c: DashboardClient, q: string) => {
  const r = await c.get<OverviewResponse>(`/overview${q}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return overviewResponseSchema.parse(r.body);
};

describe('GET /dashboard/api/overview', () => {
  it('an empty tenant: one zero entry per day of the period, no timings, nothing waiting or failing', async () => {
    const o = await get(adminB, '?mode=live&days=7');
    expect(o.perDay).toHaveLength(7);
    expect(o.perDay.every((d) => d.approved + d.review + d.rejected + d.failed === 0)).toBe(true);
    expect(o.perDay[6]!.date).toBe((await dbNow()).toISOString().slice(0, 10));
    expect(o.totals).toEqual({ approved: 0, review: 0, rejected: 0, failed: 0, total: 0 });
    expect(o.timeToVerdict).toEqual({ count: 0, medianSeconds: null, p95Seconds: null });
    expect(o.reviewBacklog).toEqual({ count: 0, oldest: null });
    expect(o.failingDeliveries).toEqual({ retrying: 0, failed: 0, lastFailureAt: null, lastStatusCode: null, lastError: null });
    expect(o.from).toBe(periodStart(new Date(o.to), 7).toISOString());
    expect((await get(adminB, '?days=90')).perDay).toHaveLength(90);
  });

  it('counts test verifications through the real flow under test mode only', async () => {
    const t = await api.tenant(10);
    const admin = (await dashboardUser(api, t.tenantId, 'admin')).client;
    const ids: Record<string, string> = {};
    for (const name of ['Test Approve', 'Test Approve', 'Test Review', 'Test Reject']) {
      const init = await api.prepared(t.keys.publishableTest, { submittedFullName: name });
      expect((await api.submit(t.keys.secretTest, init)).status).toBe(202);
      await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed', 'failed']);
      ids[name] = init.verificationId;
    }
    const test = await get(admin, '?mode=test&days=7');
    expect(test.totals).toEqual({ approved: 2, review: 1, rejected: 1, failed: 0, total: 4 });
    expect(test.perDay[6]).toMatchObject({ approved: 2, review: 1, rejected: 1, failed: 0 });
    expect(test.reviewBacklog).toMatchObject({ count: 1, oldest: { verificationId: ids['Test Review'] } });
    expect(test.timeToVerdict.count).toBe(4);
    expect(test.timeToVerdict.medianSeconds).toBeGreaterThanOrEqual(0);
    const live = await get(admin, '?mode=live&days=7');
    expect(live.totals.total).toBe(0);
    expect(live.reviewBacklog.count).toBe(0);
  });

  it('per day, shares, top reasons, median and p95 over the chosen period; failed counted apart', async () => {
    const day = 86_400;
    // Today: twenty verdicts taking 1..20 s; reasons in known frequencies.
    const reasonsOf = (i: number) => (i % 2 === 0 ? ['blurry_image'] : i % 3 === 0 ? ['glare', 'blurry_image'] : ['name_mismatch']);
    for (let i = 1; i <= 20; i++) {
      await seed(a.tenantId, {
        verdict: i <= 10 ? 'approved' : i <= 16 ? 'review' : 'rejected',
        reasons: i <= 10 ? [] : reasonsOf(i),
        ago: 60,
        took: i,
      });
    }
    await seed(a.tenantId, { verdict: null, ago: 60, took: 3 });
    // Three days ago, ten days ago, and in test mode: each counted only where it belongs.
    await seed(a.tenantId, { verdict: 'approved', ago: 3 * day, took: 2 });
    await seed(a.tenantId, { verdict: 'rejected', reasons: ['document_expired'], ago: 10 * day, took: 2 });
    await seed(a.tenantId, { mode: 'test', verdict: 'approved', ago: 60, took: 2 });

    const week = await get(adminA, '?mode=live&days=7');
    expect(week.totals).toEqual({ approved: 11, review: 6, rejected: 4, failed: 1, total: 22 });
    expect(week.perDay[6]).toMatchObject({ approved: 10, review: 6, rejected: 4, failed: 1 });
    expect(week.perDay[3]).toMatchObject({ approved: 1, review: 0, rejected: 0, failed: 0 });
    // Verdicts 11..20: even ones blurry_image (5), odd multiples of 3 glare + blurry_image (15), the rest name_mismatch (11, 13, 17, 19).
    expect(week.topReasons).toEqual([
      { reason: 'blurry_image', count: 6 },
      { reason: 'name_mismatch', count: 4 },
      { reason: 'glare', count: 1 },
    ]);
    // 21 verdicts (the failure has none): 1..20 s and one of 2 s.
    expect(week.timeToVerdict.count).toBe(21);
    // Read from 4%-wide buckets: within 2% of the exact 10 s and 19 s.
    expect(week.timeToVerdict.medianSeconds! / 10).toBeCloseTo(1, 1);
    expect(Math.abs(week.timeToVerdict.medianSeconds! - 10)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(week.timeToVerdict.p95Seconds! - 19)).toBeLessThanOrEqual(0.38);
    expect(week.reviewBacklog.count).toBe(6);

    const month = await get(adminA, '?mode=live&days=30');
    expect(month.perDay).toHaveLength(30);
    expect(month.totals.rejected).toBe(5);
    expect(month.topReasons.map((r) => r.reason)).toContain('document_expired');
    // Another tenant sees none of it.
    expect((await get(adminB, '?mode=live&days=30')).totals.total).toBe(0);
  });

  it('lists at most the top reasons, most frequent first, ties by name', async () => {
    const t = await api.tenant(10);
    const admin = (await dashboardUser(api, t.tenantId, 'admin')).client;
    const codes = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'b1'];
    for (const [i, code] of codes.entries()) {
      for (let k = 0; k <= i % 3; k++) await seed(t.tenantId, { verdict: 'rejected', reasons: [code], ago: 120, took: 1 });
    }
    const o = await get(admin, '?days=7');
    expect(o.topReasons).toHaveLength(OVERVIEW_TOP_REASONS);
    expect(o.topReasons.map((r) => r.reason)).toEqual(['a3', 'a6', 'a9', 'a2', 'a5', 'a8', 'a1', 'a4']);
  });

  it('the oldest item waiting for review, and a reviewed one leaves the backlog', async () => {
    const t = await api.tenant(10);
    const admin = (await dashboardUser(api, t.tenantId, 'admin')).client;
    const old = await seed(t.tenantId, { verdict: 'review', reasons: ['glare'], ago: 200 * 86_400, took: 5 });
    const recent = await seed(t.tenantId, { verdict: 'review', reasons: ['glare'], ago: 100, took: 5 });
    let o = await get(admin, '?days=7');
    // The backlog is now, whatever the period: the 200-day-old one counts and is the oldest.
    expect(o.reviewBacklog.count).toBe(2);
    expect(o.reviewBacklog.oldest!.verificationId).toBe(old);
    await svc.deps.db
      .updateTable('verifications')
      .set({ review_decision: 'approved', reviewed_at: new Date() })
      .where('id', '=', old)
      .execute();
    o = await get(admin, '?days=7');
    expect(o.reviewBacklog).toMatchObject({ count: 1, oldest: { verificationId: recent } });
  });

  it('webhook deliveries failing now: retrying after a failed attempt, or given up within the period; admins only', async () => {
    const t = await api.tenant(10);
    const admin = (await dashboardUser(api, t.tenantId, 'admin')).client;
    const reviewer = (await dashboardUser(api, t.tenantId, 'reviewer')).client;
    const v = await seed(t.tenantId, { verdict: 'approved', ago: 60, took: 1 });
    const now = await dbNow();
    const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
    const rows = [
      { status: 'pending', attempts: 2, updated_at: minutesAgo(3), last_status_code: 503, last_error: null },
      { status: 'pending', attempts: 0, updated_at: minutesAgo(1), last_status_code: null, last_error: null },
      { status: 'failed', attempts: 8, updated_at: minutesAgo(2), last_status_code: null, last_error: 'connect ECONNREFUSED' },
      { status: 'failed', attempts: 8, updated_at: minutesAgo(60 * 24 * 40), last_status_code: 500, last_error: null },
      { status: 'delivered', attempts: 1, updated_at: minutesAgo(0), last_status_code: 200, last_error: null },
    ] as const;
    for (const [i, r] of rows.entries()) {
      const eventId = `evt_overview_${t.tenantId}_${i}`;
      await svc.deps.db
        .insertInto('webhook_events')
        .values({ id: eventId, tenant_id: t.tenantId, verification_id: v, type: 'verification.approved', body: '{}', created_at: now })
        .execute();
      await svc.deps.db
        .insertInto('webhook_deliveries')
        .values({
          id: `whd_overview_${t.tenantId}_${i}`,
          event_id: eventId,
          tenant_id: t.tenantId,
          created_at: now,
          next_attempt_at: null,
          ...r,
        })
        .execute();
    }
    const o = await get(admin, '?days=30');
    expect(o.failingDeliveries).toEqual({
      retrying: 1,
      failed: 1,
      lastFailureAt: minutesAgo(2).toISOString(),
      lastStatusCode: null,
      lastError: 'connect ECONNREFUSED',
    });
    expect((await get(admin, '?days=90')).failingDeliveries!.failed).toBe(2);
    // A reviewer sees the verification figures, not the webhook ones.
    const r = await get(reviewer, '?days=30');
    expect(r.failingDeliveries).toBeNull();
    expect(r.totals.approved).toBe(1);
  });

  it('refuses a period other than 7, 30 or 90 days, a mode other than live or test, and a caller not signed in', async () => {
    for (const q of ['?days=14', '?days=abc', '?mode=both']) {
      const r = await adminA.get(`/overview${q}`);
      expectErrorShape(r, 400, 'invalid_body');
    }
    const anonymous = new DashboardClient(svc.url);
    expect((await anonymous.get('/overview')).status).toBe(401);
  });
});

describe('the Overview statements', () => {
  it('each reads its index (no scan of a table, even where a scan would be cheaper)', async () => {
    const statements = overviewStatements(a.tenantId, 'live', periodStart(await dbNow(), 90));
    const plans: Record<string, string> = {};
    await svc.deps.db.transaction().execute(async (trx) => {
      // The tables here are tiny, so the planner would rightly scan them: forbid it, and see which
      // index each statement can use.
      await sql`set local enable_seqscan = off`.execute(trx);
      for (const [name, q] of Object.entries(statements)) {
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${q}`.execute(trx);
        plans[name] = rows.map((r) => r['QUERY PLAN']).join('\n');
      }
    });
    const expected: Record<keyof typeof statements, string> = {
      perDay: 'overview_days_pkey',
      topReasons: 'overview_day_reasons_pkey',
      timeToVerdict: 'overview_day_latency_pkey',
      reviewBacklog: 'verifications_review_backlog_idx',
      failingDeliveries: 'webhook_deliveries_undelivered_idx',
    };
    for (const [name, index] of Object.entries(expected)) {
      expect(plans[name], `${name}:\n${plans[name]}`).toContain(index);
      expect(plans[name], `${name}:\n${plans[name]}`).not.toMatch(/Seq Scan/);
    }
  });
});

describe('the rollups the database keeps', () => {
  /** The same figures counted from the verifications themselves (a full scan, for the test only). */
  async function recount(tenantId: string) {
    const { rows } = await sql<{ mode: string; day: string; verdict: string | null; status: string; n: string }>`
      select mode, to_char(completed_at at time zone 'UTC', 'YYYY-MM-DD') as day, verdict, status, count(*) as n
      from verifications where tenant_id = ${tenantId} and completed_at is not null and status in ('completed', 'failed')
      group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(svc.deps.db);
    const reasons = await sql<{ reason: string; n: string }>`
      select r.reason, count(*) as n from verifications v cross join lateral jsonb_array_elements_text(v.reasons) r(reason)
      where v.tenant_id = ${tenantId} and v.status = 'completed' and v.completed_at is not null group by 1 order by 1`.execute(svc.deps.db);
    return {
      outcomes: rows.map((r) => `${r.mode} ${r.day} ${r.status} ${r.verdict} ${r.n}`),
      reasons: reasons.rows.map((r) => `${r.reason} ${r.n}`),
    };
  }
  async function fromRollups(tenantId: string) {
    const { rows } = await sql<{ mode: string; day: string; approved: number; review: number; rejected: number; failed: number }>`
      select mode, to_char(day, 'YYYY-MM-DD') as day, approved, review, rejected, failed from overview_days
      where tenant_id = ${tenantId} order by 1, 2`.execute(svc.deps.db);
    const outcomes = rows.flatMap((r) =>
      (
        [
          ['completed', 'approved', r.approved],
          ['completed', 'rejected', r.rejected],
          ['completed', 'review', r.review],
          ['failed', null, r.failed],
        ] as const
      )
        .filter(([, , n]) => n !== 0)
        .map(([status, verdict, n]) => `${r.mode} ${r.day} ${status} ${verdict} ${n}`),
    );
    const reasons = await sql<{ reason: string; n: string }>`
      select reason, sum(count) as n from overview_day_reasons where tenant_id = ${tenantId}
      group by 1 having sum(count) <> 0 order by 1`.execute(svc.deps.db);
    return { outcomes: outcomes.sort(), reasons: reasons.rows.map((r) => `${r.reason} ${r.n}`) };
  }

  it('follow every write: bulk inserts, a verdict changed, a review decided, data erased, rows deleted', async () => {
    const t = await api.tenant(10);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const verdict = (['approved', 'review', 'rejected', null] as const)[i % 4]!;
      ids.push(
        await seed(t.tenantId, {
          verdict,
          reasons: verdict && verdict !== 'approved' ? ['glare', 'blurry_image'] : [],
          ago: i * 40_000,
          took: 2 + i,
          mode: i % 5 === 0 ? 'test' : 'live',
        }),
      );
    }
    // One statement writing many rows (an operator's import): counted once each.
    await sql`insert into verifications (id, tenant_id, mode, upload_token_hash, created_at, slots_expire_at, intent_expires_at,
        status, submitted_at, verdict, reasons, completed_at)
      select 'vf_overviewbulk' || lpad(i::text, 6, '0'), ${t.tenantId}, 'live', 'x', now(), now(), now(),
        'completed', now() - interval '3 seconds', 'rejected', '["document_expired"]'::jsonb, now()
      from generate_series(1, 25) i`.execute(svc.deps.db);
    expect(await fromRollups(t.tenantId)).toEqual(await recount(t.tenantId));

    const db = svc.deps.db;
    await db.updateTable('verifications').set({ review_decision: 'approved', reviewed_at: new Date() }).where('id', '=', ids[1]!).execute();
    await db.updateTable('verifications').set({ verdict: 'approved', reasons: '[]' }).where('id', '=', ids[2]!).execute();
    await db
      .updateTable('verifications')
      .set({ personal_data_erased_at: new Date(), fields_extracted: null })
      .where('tenant_id', '=', t.tenantId)
      .execute();
    await db
      .updateTable('verifications')
      .set({ completed_at: new Date(Date.now() - 9 * 86_400_000) })
      .where('id', '=', ids[5]!)
      .execute();
    await db.deleteFrom('verifications').where('id', 'in', [ids[0]!, ids[3]!]).execute();
    await db.deleteFrom('verifications').where('id', 'like', 'vf_overviewbulk00001%').execute();
    expect(await fromRollups(t.tenantId)).toEqual(await recount(t.tenantId));
  });

  it('reads a quantile within 2% from its buckets', () => {
    const bucketOf = (seconds: number) => Math.max(0, Math.ceil(Math.log(Math.max(seconds * 1000, 1)) / Math.log(LATENCY_BUCKET_RATIO)));
    const values = Array.from({ length: 500 }, (_, i) => 0.2 + (i * i) / 900);
    const counts = new Map<number, number>();
    for (const v of values) counts.set(bucketOf(v), (counts.get(bucketOf(v)) ?? 0) + 1);
    const buckets = [...counts].sort((x, y) => x[0] - y[0]).map(([bucket, count]) => ({ bucket, count }));
    for (const q of [0.05, 0.5, 0.9, 0.95, 0.99]) {
      const exact = values[Math.ceil(q * values.length) - 1]!;
      expect(Math.abs(bucketQuantile(buckets, q)! / exact - 1), `q ${q}`).toBeLessThanOrEqual(0.02);
    }
    expect(bucketQuantile([], 0.5)).toBeNull();
  });
});
