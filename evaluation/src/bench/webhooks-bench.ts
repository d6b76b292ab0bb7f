/**
 * `npm run bench:webhooks`: latency from verdict (completed_at) to receipt at a local HTTPS
 * receiver, p50/p99, and deliveries per second, beside a baseline measured in the same run: the
 * same signed POSTs sent straight from this process with the same concurrency (no queue, no DB).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { signWebhook } from '@service/api/webhooks/signature';
import { fmt } from './load.js';
import { makeLocalCa } from '@service/fixtures/local-ca';
import { createScratchDatabase } from './scratch-database.js';
import { startListening } from './spawn-service.js';
import { API_MAIN } from '../paths.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = 'bench-admin-token-0123456789';
const SECRET = 'bench-webhook-secret-0123456789';
const COUNT = Number(process.env.BENCH_WEBHOOKS ?? 300);
const TENANTS = Math.ceil(COUNT / 25);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
};

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-wh-'));
  makeLocalCa(dir, { days: 1, name: 'bench CA' });
  const received = new Map<string, number>(); // event id -> receipt time (ms), 2xx answers only
  let answer = 204;
  const receiver = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'server.key')), cert: fs.readFileSync(path.join(dir, 'server.pem')) },
    (req, res) => {
      req.resume();
      req.on('end', () => {
        if (answer < 300) received.set(String(req.headers['service-event-id']), Date.now());
        res.writeHead(answer).end();
      });
    },
  );
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const hookUrl = `https://localhost:${(receiver.address() as AddressInfo).port}/hook`;

  const scratch = await createScratchDatabase(BASE_URL, 'bench_wh');
  const url = scratch.url;
  let child: ChildProcess | null = null;
  try {
    const started = await startListening(API_MAIN, {
      DATABASE_URL: url,
      DATA_DIR: dir,
      PORT: '0',
      ADMIN_TOKEN: ADMIN,
      CLIENT_IP_HEADER: 'x-bench-ip',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem'),
    });
    child = started.child;
    const base = started.url;
    let ip = 0;
    const call = async (method: string, p: string, headers: Record<string, string>, body?: string | Buffer) => {
      const r = await fetch(`${base}${p}`, {
        method,
        headers: { 'x-bench-ip': `10.9.${(ip >> 8) & 255}.${ip++ & 255}`, ...headers },
        body,
      });
      return (await r.json()) as any;
    };
    const jpeg = Buffer.alloc(4096, 1);
    jpeg[0] = 0xff;
    jpeg[1] = 0xd8;
    jpeg[2] = 0xff;

    // Two bursts, each on its own tenants, so no per-tenant limit trips.
    const tenants: any[] = [];
    for (let i = 0; i < 2 * TENANTS; i++) {
      const t = await call(
        'POST',
        '/admin/v1/tenants',
        { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
        JSON.stringify({ name: 'bench', credits: 10 }),
      );
      await call(
        'PATCH',
        `/admin/v1/tenants/${t.tenantId}`,
        { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
        JSON.stringify({ webhook: { url: hookUrl, secret: SECRET } }),
      );
      tenants.push(t);
    }
    // Prepare every verification first, then submit them all at once: a burst of verdicts.
    const burst = async (round: number) => {
      const prepared = [];
      for (let i = 0; i < COUNT; i++) {
        const t = tenants[round * TENANTS + (i % TENANTS)];
        const init = await call(
          'POST',
          '/v1/verify/init',
          { Authorization: `Bearer ${t.keys.publishableTest}`, 'Content-Type': 'application/json' },
          JSON.stringify({ submittedFullName: 'Test Approve' }),
        );
        for (const slot of ['docFront', 'selfie'])
          await call('PUT', new URL(init.uploads[slot].url).pathname, init.uploads[slot].headers, jpeg);
        prepared.push({ t, init });
      }
      await Promise.all(
        prepared.map(({ t, init }) =>
          call(
            'POST',
            '/v1/verify/submit',
            { Authorization: `Bearer ${t.keys.secretTest}`, 'Content-Type': 'application/json' },
            JSON.stringify({
              verificationId: init.verificationId,
              keys: { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key },
            }),
          ),
        ),
      );
    };
    await burst(0);
    const until = Date.now() + 120_000;
    while (received.size < COUNT && Date.now() < until) await new Promise((r) => setTimeout(r, 50));

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const { rows } = await db.query(`select e.id, extract(epoch from v.completed_at) * 1000 as verdict_ms
      from webhook_events e join verifications v on v.id = e.verification_id`);
    await db.end();
    const latencies: number[] = [];
    let first = Infinity;
    let last = 0;
    for (const r of rows) {
      const at = received.get(r.id);
      if (at === undefined) continue;
      latencies.push(at - Number(r.verdict_ms));
      first = Math.min(first, Number(r.verdict_ms));
      last = Math.max(last, at);
    }
    const verdictRate = latencies.length / ((last - first) / 1000);

    // Throughput of delivery alone: a second burst whose deliveries all fail at once (410), then
    // the receiver recovers and one bulk requeue drains them.
    const delivered = latencies.length;
    answer = 410;
    const since = new Date().toISOString();
    await burst(1);
    const db2 = new pg.Client({ connectionString: url });
    await db2.connect();
    const failedCount = async () =>
      Number((await db2.query(`select count(*) from webhook_deliveries where status = 'failed'`)).rows[0].count);
    const until2 = Date.now() + 120_000;
    while ((await failedCount()) < COUNT && Date.now() < until2) await new Promise((r) => setTimeout(r, 100));
    await db2.end();
    answer = 204;
    received.clear();
    const requeuedAt = Date.now();
    for (const t of tenants) {
      await call(
        'POST',
        `/admin/v1/tenants/${t.tenantId}/webhook-deliveries/requeue`,
        { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
        JSON.stringify({ since }),
      );
    }
    const until3 = Date.now() + 120_000;
    while (received.size < COUNT && Date.now() < until3) await new Promise((r) => setTimeout(r, 20));
    const backlogDelivered = received.size;
    const serviceRate = backlogDelivered / ((Math.max(...received.values()) - requeuedAt) / 1000);

    // Baseline: the same signed POSTs straight to the receiver, 4 in flight (the worker count).
    const body = JSON.stringify({ id: 'evt_0', type: 'verification.approved' });
    const agent = new https.Agent({ keepAlive: false, ca: fs.readFileSync(path.join(dir, 'ca.pem')) });
    const bareLat: number[] = [];
    let next = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next++ < COUNT) {
          const s = performance.now();
          await new Promise<void>((resolve, reject) => {
            const req = https.request(
              hookUrl,
              {
                method: 'POST',
                agent,
                headers: {
                  'Content-Type': 'application/json',
                  'Service-Signature': signWebhook(SECRET, Math.floor(Date.now() / 1000), body),
                  'Service-Event-Id': `bare-${next}`,
                },
              },
              (res) => {
                res.resume();
                res.on('end', () => resolve());
              },
            );
            req.on('error', reject);
            req.end(body);
          });
          bareLat.push(performance.now() - s);
        }
      }),
    );
    const bareRate = COUNT / ((Date.now() - t0) / 1000);

    const lines = [
      '',
      `bench:webhooks  ${COUNT} verdicts submitted in one burst, HTTPS receiver on loopback (${os.cpus().length} cores)`,
      '',
      '                                   | p50 ms | p99 ms | deliveries/s',
      '-----------------------------------|--------|--------|-------------',
      `verdict -> receipt (service)      | ${fmt(pct(latencies, 0.5), 0).padStart(6)} | ${fmt(pct(latencies, 0.99), 0).padStart(6)} | ${fmt(verdictRate, 0).padStart(12)} (verdicts/s of the burst)`,
      `requeued backlog (service)        |        |        | ${fmt(serviceRate, 0).padStart(12)}`,
      `bare signed POST, 4 in flight     | ${fmt(pct(bareLat, 0.5), 0).padStart(6)} | ${fmt(pct(bareLat, 0.99), 0).padStart(6)} | ${fmt(bareRate, 0).padStart(12)}`,
      `ratio service/bare deliveries/s   |        |        | ${fmt((100 * serviceRate) / bareRate, 1).padStart(11)}%`,
      '',
      `delivered ${delivered}/${COUNT} of the first burst, ${backlogDelivered}/${COUNT} of the requeued backlog; target p50 <= 150 ms: ${fmt(pct(latencies, 0.5), 0)} ms ${pct(latencies, 0.5) <= 150 ? 'MET' : 'NOT MET'} `,
    ];
    console.log(lines.join('\n'));
    fs.mkdirSync('bench-results', { recursive: true });
    fs.writeFileSync(
      path.join('bench-results', 'webhooks.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          count: COUNT,
          latencies: { p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) },
          serviceRate,
          bareRate,
        },
        null,
        2,
      ),
    );
  } finally {
    child?.kill('SIGKILL');
    receiver.close();
    await new Promise((r) => setTimeout(r, 300));
    await scratch.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
