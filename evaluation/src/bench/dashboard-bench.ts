/**
 * `npm run bench:dashboard`: the dashboard's Overview at 1,000,000 verifications on PostgreSQL.
 * A scratch database gets the service's schema (its migrations, by starting the real service on
 * it), then 1,000,000 verifications written by one SQL statement: spread over the last 365 days,
 * 10% never submitted, the rest approved, sent to review, rejected or failed with reasons and
 * times to verdict. The signed-in tenant holds BENCH_TENANT_SHARE of them (default all: the
 * hardest case, about 200,000 live verdicts in its 90-day period), 99 other tenants the rest. Its
 * webhook has 50,000 deliveries, 3% failing.
 *
 * Measured: `GET /dashboard/api/overview` over HTTP with a session cookie, one request at a time,
 * for 7, 30 and 90 days (live), p50 and p95; each statement alone on the 90-day period; and, in the
 * same run, the baselines: a bare `select count(*) from verifications` (all 1,000,000 rows) and
 * the smallest signed-in route (`GET /dashboard/api/session`). Writes bench-results/dashboard.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { overviewStatements, periodStart } from '@service/api/dashboard/overview';
import type { Database } from '@service/api/db/types';
import { withScratchService } from './scratch-service.js';
import { createTenants } from './tenants.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SHARE = Number(process.env.BENCH_TENANT_SHARE ?? 1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const OTHER_TENANTS = 99;
const DELIVERIES = 50_000;
const ADMIN = 'bench-admin-token-0123456789';
const PASSWORD = 'bench dashboard password';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const summary = (xs: number[]) => ({ p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), max: Math.max(...xs) });
const f1 = (x: number) => x.toFixed(1);

async function timed(rounds: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn(); // warm the caches and the plans
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** One statement writes every verification: the signed-in tenant's share first, then the others round-robin. */
async function seed(db: pg.Client, tenantId: string): Promise<void> {
  await db.query(
    `insert into tenants (id, name, credits) select 'ten_bench_' || k, 'bench ' || k, 0 from generate_series(1, ${OTHER_TENANTS}) k`,
  );
  await db.query(`select setseed(0.42)`);
  await db.query(
    `insert into verifications (id, tenant_id, mode, upload_token_hash, created_at, slots_expire_at, intent_expires_at,
       status, submitted_at, verdict, reasons, completed_at, failure_code, review_decision, reviewed_at)
     select id, tenant_id, mode, 'x', created_at, created_at + interval '1 hour', created_at + interval '1 hour',
       case when abandoned then null when outcome < 0.98 then 'completed' else 'failed' end,
       case when abandoned then null else submitted_at end,
       case when abandoned or outcome >= 0.98 then null when outcome < 0.80 then 'approved' when outcome < 0.92 then 'review' else 'rejected' end,
       case when abandoned or outcome >= 0.98 then null when outcome < 0.80 then '[]'::jsonb
            else jsonb_build_array(reasons[1 + floor(r1 * 10)::int]) || case when r2 < 0.3 then jsonb_build_array(reasons[1 + floor(r2 * 10)::int]) else '[]'::jsonb end end,
       case when abandoned then null else completed_at end,
       case when not abandoned and outcome >= 0.98 then 'pipeline_error' end,
       case when not abandoned and outcome >= 0.80 and outcome < 0.92 and completed_at < now() - interval '3 days' then 'approved' end,
       case when not abandoned and outcome >= 0.80 and outcome < 0.92 and completed_at < now() - interval '3 days' then completed_at + interval '2 hours' end
     from (
       select 'vf_bench' || lpad(i::text, 14, '0') as id,
         case when i <= $2::int then $1 else 'ten_bench_' || (1 + i % ${OTHER_TENANTS}) end as tenant_id,
         case when random() < 0.9 then 'live' else 'test' end as mode,
         random() < 0.1 as abandoned, random() as outcome, random() as r1, random() as r2,
         completed_at, completed_at - took as submitted_at, completed_at - took - interval '40 seconds' as created_at,
         array['name_mismatch','face_mismatch','document_unreadable','document_expired','liveness_failed',
               'blurry_image','no_face_in_selfie','image_too_dark','glare','low_resolution'] as reasons
       from (
         select i, now() - random() * interval '365 days' as completed_at,
           case when random() < 0.02 then interval '1 second' * (60 + random() * 540) else interval '1 second' * (1 + random() * 29) end as took
         from generate_series(1, $3::int) i
       ) base
     ) v`,
    [tenantId, Math.round(ROWS * SHARE), ROWS],
  );
  // The signed-in tenant's webhook: deliveries of its latest finished live verifications, 3% failing.
  await db.query(
    `with latest as (
       select id, completed_at, row_number() over () as n from (
         select id, completed_at from verifications
         where tenant_id = $1 and mode = 'live' and completed_at is not null order by completed_at desc limit $2
       ) x
     ), events as (
       insert into webhook_events (id, tenant_id, verification_id, type, body, created_at)
       select 'evt_bench' || n, $1, id, 'verification.approved', '{}', completed_at from latest returning id, created_at
     )
     insert into webhook_deliveries (id, event_id, tenant_id, status, attempts, last_status_code, last_error, next_attempt_at, created_at, updated_at)
     select 'whd_' || e.id, e.id, $1, s.status, s.attempts, s.code, null, null, e.created_at, e.created_at + interval '1 minute'
     from events e cross join lateral (
       select case when r < 0.97 then 'delivered' when r < 0.99 then 'failed' else 'pending' end as status,
              case when r < 0.97 then 1 else 3 end as attempts,
              case when r < 0.97 then 200 else 503 end as code
       from (select random() + 0 * length(e.id) as r) rr
     ) s`,
    [tenantId, DELIVERIES],
  );
  await db.query('vacuum analyze');
}

async function main() {
  const env = {
    ADMIN_TOKEN: ADMIN,
    PROCESS_ROLE: 'api', // HTTP only: no pipeline children competing for the cores
    BLOB_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: 'warn',
    DEMO: 'false',
  };
  await withScratchService(BASE_URL, 'bench_dashboard', env, (s) => measure(s.url, s.databaseUrl));
}

async function measure(url: string, databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const [tenant] = await createTenants(url, ADMIN, 1, 0);
    const email = 'bench.admin@example.com';
    const user = await fetch(`${url}/admin/v1/tenants/${tenant!.tenantId}/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, role: 'admin', password: PASSWORD }),
    });
    if (user.status !== 201) throw new Error(`user: ${user.status} ${await user.text()}`);
    const signIn = await fetch(`${url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const cookie = /dashboard_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error(`sign-in: ${signIn.status}`);

    const t0 = performance.now();
    await seed(db, tenant!.tenantId);
    const seedSeconds = (performance.now() - t0) / 1000;
    const counts = (
      await db.query<{ all: string; mine: string; mine90: string }>(
        `select count(*) as all, count(*) filter (where tenant_id = $1) as mine,
           count(*) filter (where tenant_id = $1 and mode = 'live' and completed_at >= now() - interval '90 days') as mine90
         from verifications`,
        [tenant!.tenantId],
      )
    ).rows[0]!;
    console.log(
      `seeded ${Number(counts.all).toLocaleString('en')} verifications in ${f1(seedSeconds)} s; the signed-in tenant holds ` +
        `${Number(counts.mine).toLocaleString('en')} (${Number(counts.mine90).toLocaleString('en')} live ones finished in the last 90 days)`,
    );

    const get = (p: string) =>
      fetch(`${url}/dashboard/api${p}`, { headers: { Cookie: cookie } }).then(async (r) => {
        if (r.status !== 200) throw new Error(`${p}: ${r.status} ${await r.text()}`);
        return r.json();
      });
    const results: Record<string, { p50: number; p95: number; max: number }> = {};
    results.countAll = summary(await timed(ROUNDS, () => db.query('select count(*) from verifications')));
    results.session = summary(await timed(ROUNDS, () => get('/session')));
    const overviewTimes: number[] = [];
    for (const days of [7, 30, 90]) {
      const times = await timed(ROUNDS, () => get(`/overview?mode=live&days=${days}`));
      results[`overview${days}`] = summary(times);
      overviewTimes.push(...times);
    }
    results.overviewAll = summary(overviewTimes);

    // Each statement alone, 90 days, straight on the database.
    const k = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }) });
    const statements = overviewStatements(tenant!.tenantId, 'live', periodStart(new Date(), 90));
    const perStatement: Record<string, { p50: number; p95: number; max: number }> = {};
    for (const [name, q] of Object.entries(statements)) perStatement[name] = summary(await timed(Math.min(ROUNDS, 20), () => q.execute(k)));
    await k.destroy();

    const ratio = results.overviewAll.p95 / results.countAll.p95;
    console.log(
      `\nbaselines (same run): select count(*) from verifications p50 ${f1(results.countAll.p50)} ms, p95 ${f1(results.countAll.p95)} ms;`,
    );
    console.log(`  GET /dashboard/api/session p50 ${f1(results.session.p50)} ms, p95 ${f1(results.session.p95)} ms`);
    console.log(`GET /dashboard/api/overview (live), ${ROUNDS} requests per period, one at a time:`);
    for (const days of [7, 30, 90]) {
      const r = results[`overview${days}`]!;
      console.log(`  ${String(days).padStart(2)} days: p50 ${f1(r.p50)} ms, p95 ${f1(r.p95)} ms, max ${f1(r.max)} ms`);
    }
    console.log(
      `  all periods: p95 ${f1(results.overviewAll.p95)} ms (target <= 200 ms: ${results.overviewAll.p95 <= 200 ? 'met' : 'NOT met'}); ` +
        `ratio to count(*) p95: ${ratio.toFixed(2)}`,
    );
    console.log('each statement alone, 90 days:');
    for (const [name, r] of Object.entries(perStatement)) console.log(`  ${name.padEnd(18)} p50 ${f1(r.p50)} ms, p95 ${f1(r.p95)} ms`);

    const out = 'bench-results';
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(
      path.join(out, 'dashboard.json'),
      JSON.stringify({ rows: Number(counts.all), tenantRows: Number(counts.mine), seedSeconds, results, perStatement, ratio }, null, 2),
    );
  } finally {
    await db.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
