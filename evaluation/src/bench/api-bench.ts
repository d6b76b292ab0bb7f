/**
 * `npm run bench:api`: init throughput and p50/p99 latency on PostgreSQL at 1 and 50 requests in
 * flight, beside a bare Koa handler doing the same single INSERT on the same database, measured
 * in the same run. Requests are spread over many tenants and client addresses so no limit trips.
 * Each server runs in its own process; this process only generates load.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { fmt, ms, runLoad, type LoadResult } from './load.js';
import { createScratchDatabase } from './scratch-database.js';
import { createTenants } from './tenants.js';
import { startListening } from './spawn-service.js';
import { API_MAIN } from '../paths.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ADMIN = 'bench-admin-token-0123456789';
const TENANTS = 600;

async function main() {
  const scratch = await createScratchDatabase(BASE_URL, 'bench');
  const databaseUrl = scratch.url;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  const children: ChildProcess[] = [];
  try {
    const svc = await startListening(API_MAIN, {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: '0',
      ADMIN_TOKEN: ADMIN,
      CLIENT_IP_HEADER: 'x-bench-client-ip',
      // Production logging (one JSON line per request), written to a discarded pipe.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      PROCESS_ROLE: 'api',
      // Split processes share one image key (config.ts); any 32 bytes do for a benchmark.
      BLOB_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
    });
    children.push(svc.child);

    // Tenants with a publishable key each, created through the operator API.
    const keys = (await createTenants(svc.url, ADMIN, TENANTS, 1000)).map((t) => t.keys.publishable);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const tenantId = (await db.query('select id from tenants limit 1')).rows[0].id as string;

    const bare = await startListening(path.join(here, 'bare-server.js'), { DATABASE_URL: databaseUrl, BENCH_TENANT_ID: tenantId });
    children.push(bare.child);

    const body = '{"country":"ES","documentType":"passport"}';
    const initLoad = (concurrency: number, seconds: number) =>
      runLoad({
        url: `${svc.url}/v1/verify/init`,
        concurrency,
        seconds,
        body,
        headers: (n) => ({
          authorization: `Bearer ${keys[n % keys.length]}`,
          'x-bench-client-ip': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        }),
      });
    const bareLoad = (concurrency: number, seconds: number) =>
      runLoad({ url: `${bare.url}/`, concurrency, seconds, body, headers: () => ({}) });

    const results: Record<string, { service: LoadResult; bare: LoadResult }> = {};
    for (const concurrency of [1, 50]) {
      // Warm both, then measure the bare ceiling and the service back to back.
      await bareLoad(concurrency, 1);
      await initLoad(concurrency, 1);
      const bareResult = await bareLoad(concurrency, SECONDS);
      const serviceResult = await initLoad(concurrency, SECONDS);
      results[concurrency] = { service: serviceResult, bare: bareResult };
    }
    await db.end();

    const lines = [
      '',
      `bench:api  POST /v1/verify/init on PostgreSQL (${os.cpus().length} cores, ${SECONDS} s per run, ${TENANTS} tenants, one client address per request)`,
      '',
      'in flight | server              |   req/s | p50 ms | p99 ms | errors',
      '----------|---------------------|---------|--------|--------|-------',
    ];
    for (const [c, r] of Object.entries(results)) {
      lines.push(
        `${c.padStart(9)} | bare Koa + 1 INSERT | ${fmt(r.bare.rps, 0).padStart(7)} | ${ms(r.bare.p50).padStart(6)} | ${ms(r.bare.p99).padStart(6)} | ${r.bare.errors}`,
      );
      lines.push(
        `${c.padStart(9)} | service init        | ${fmt(r.service.rps, 0).padStart(7)} | ${ms(r.service.p50).padStart(6)} | ${ms(r.service.p99).padStart(6)} | ${r.service.errors}`,
      );
      lines.push(
        `${''.padStart(9)} | ratio service/bare  | ${fmt((100 * r.service.rps) / r.bare.rps, 1).padStart(6)}% |        |        |`,
      );
    }
    const r50 = results[50]!;
    lines.push(
      '',
      `targets: throughput >= 40% of bare at 50 in flight: ${fmt((100 * r50.service.rps) / r50.bare.rps, 1)}% ${r50.service.rps / r50.bare.rps >= 0.4 ? 'MET' : 'NOT MET'}; p99 < 20 ms at 50 in flight: ${ms(r50.service.p99)} ms ${r50.service.p99 < 20 ? 'MET' : 'NOT MET'}`,
    );
    console.log(lines.join('\n'));
    fs.mkdirSync('bench-results', { recursive: true });
    fs.writeFileSync(
      path.join('bench-results', 'api.json'),
      JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, results }, null, 2),
    );
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
