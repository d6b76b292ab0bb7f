/**
 * `npm run bench:scale`: a split deployment on one PostgreSQL database, on this machine.
 * (1) init throughput with 1, 2 and 4 API processes (PROCESS_ROLE=api), 50 requests in flight
 * spread over them; (2) verification throughput (live mode, the real vision pipeline, a genuine
 * case of the smoke set) with 1 and 2 worker processes. Ratios against the single process of the
 * same run; this process only generates load. Writes bench-results/scale.json.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildSmokeSet } from '@service/fixtures/smoke-set';
import { fmt, ms, runLoad, type LoadResult } from './load.js';
import { createScratchDatabase } from './scratch-database.js';
import { createTenants } from './tenants.js';
import { startListening } from './spawn-service.js';
import { API_MAIN } from '../paths.js';

const MAIN = API_MAIN;
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const VERIFICATIONS = Number(process.env.BENCH_VERIFICATIONS ?? 16);
const ADMIN = 'bench-admin-token-0123456789';
const TENANTS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const scratch = await createScratchDatabase(BASE_URL, 'bench_scale');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-scale-'));
  const children: ChildProcess[] = [];
  const env = (role: 'api' | 'worker') => ({
    DATABASE_URL: scratch.url,
    // One image directory for every process: the shared store of this one-machine run.
    DATA_DIR: dataDir,
    PORT: '0',
    ADMIN_TOKEN: ADMIN,
    CLIENT_IP_HEADER: 'x-bench-client-ip',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', // production logging, to a discarded pipe
    PROCESS_ROLE: role,
    BLOB_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
    DATABASE_POOL_SIZE: '10',
  });
  const spawn = async (role: 'api' | 'worker') => {
    const s = await startListening(MAIN, env(role));
    children.push(s.child);
    return s;
  };
  const db = new pg.Client({ connectionString: scratch.url });
  try {
    const apis = [await spawn('api')];
    for (let i = 1; i < 4; i++) apis.push(await spawn('api'));
    const api = apis[0]!.url;
    await db.connect();

    const keys = (await createTenants(api, ADMIN, TENANTS, 1000)).map((t) => t.keys.publishable);

    // (1) init throughput: 50 in flight, spread evenly over n API processes.
    const initRuns: Record<string, LoadResult> = {};
    let next = 0;
    for (const n of [1, 2, 4]) {
      const per = await Promise.all(
        apis.slice(0, n).map((s) =>
          runLoad({
            url: `${s.url}/v1/verify/init`,
            concurrency: Math.round(50 / n),
            seconds: SECONDS,
            body: '{"country":"ES","documentType":"passport"}',
            headers: () => {
              // One counter for every loader and run: consecutive tenants and client addresses, so no limit trips.
              const x = next++;
              return {
                authorization: `Bearer ${keys[x % keys.length]}`,
                'x-bench-client-ip': `10.${(x >> 16) & 255}.${(x >> 8) & 255}.${x & 255}`,
              };
            },
          }),
        ),
      );
      const statuses: Record<string, number> = {};
      for (const r of per) for (const [code, c] of Object.entries(r.statuses ?? {})) statuses[code] = (statuses[code] ?? 0) + c;
      initRuns[n] = {
        statuses,
        requests: per.reduce((a, r) => a + r.requests, 0),
        errors: per.reduce((a, r) => a + r.errors, 0),
        seconds: SECONDS,
        // Answered 200 only: a refusal is no init.
        rps: (statuses['200'] ?? 0) / SECONDS,
        p50: Math.max(...per.map((r) => r.p50)),
        p99: Math.max(...per.map((r) => r.p99)),
      };
    }
    if (process.env.BENCH_INIT_ONLY) {
      console.log(JSON.stringify(initRuns, null, 1));
      return;
    }
    // The API processes leave the cores to the workers (one stays for the flow below).
    for (const s of apis.slice(1)) s.child.kill('SIGKILL');

    // (2) verification throughput with 1, then 2 worker processes.
    const genuine = (await buildSmokeSet()).find((c) => c.cls === 'genuine')!;
    // A tenant per batch and a client address per request: the per-tenant submit limit (30 a
    // minute) and the per-IP limits would otherwise pace the benchmark.
    const newTenant = async () => (await createTenants(api, ADMIN, 1, 10_000))[0]!;
    let ip = 0;
    const clientIp = () => `10.200.${(++ip >> 8) & 255}.${ip & 255}`;
    const prepare = async (count: number) => {
      const tenant = await newTenant();
      const ids: { id: string; secret: string; keys: Record<string, string> }[] = [];
      for (let i = 0; i < count; i++) {
        const init = (await (
          await fetch(`${api}/v1/verify/init`, {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${tenant.keys.publishable}`,
              'Content-Type': 'application/json',
              'x-bench-client-ip': clientIp(),
            },
            body: JSON.stringify({ submittedFullName: genuine.typedName }),
          })
        ).json()) as {
          verificationId: string;
          uploads: Record<'docFront' | 'selfie', { url: string; key: string; headers: Record<string, string> }>;
        };
        for (const [slot, bytes] of [
          ['docFront', genuine.docFront],
          ['selfie', genuine.selfie],
        ] as const) {
          const s = init.uploads[slot];
          const r = await fetch(s.url, {
            method: 'PUT',
            headers: { ...s.headers, 'X-Service-Capture-Source': 'camera', 'x-bench-client-ip': clientIp() },
            body: bytes,
          });
          if (r.status !== 200) throw new Error(`upload answered ${r.status}`);
        }
        ids.push({
          id: init.verificationId,
          secret: tenant.keys.secret,
          keys: { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key },
        });
      }
      return ids;
    };
    const submitAndWait = async (prepared: { id: string; secret: string; keys: Record<string, string> }[]) => {
      const ids = prepared.map((p) => p.id);
      const started = performance.now();
      const answers = await Promise.all(
        prepared.map((p) =>
          fetch(`${api}/v1/verify/submit`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${p.secret}`, 'Content-Type': 'application/json', 'x-bench-client-ip': clientIp() },
            body: JSON.stringify({ verificationId: p.id, keys: p.keys }),
          }),
        ),
      );
      const refused = answers.filter((a) => a.status !== 202).map((a) => a.status);
      if (refused.length) throw new Error(`submit answered ${refused.join(', ')}`);
      for (;;) {
        const { rows } = await db.query<{ n: string }>(
          "select count(*) as n from verifications where id = any($1) and status in ('completed','failed')",
          [ids],
        );
        if (Number(rows[0]!.n) === ids.length) break;
        await sleep(100);
      }
      return (performance.now() - started) / 1000;
    };
    const verificationRuns: Record<string, { seconds: number; perMinute: number; approved: number }> = {};
    for (const workers of [1, 2]) {
      while (children.filter((c) => c.exitCode === null && c.signalCode === null).length < 1 + workers) await spawn('worker');
      // Warm-up: the workers' pipeline processes load their models on the first jobs.
      await submitAndWait(await prepare(2 * workers));
      const prepared = await prepare(VERIFICATIONS);
      const seconds = await submitAndWait(prepared);
      const ids = prepared.map((p) => p.id);
      const { rows } = await db.query<{ n: string }>(
        "select count(*) as n from verifications where id = any($1) and verdict = 'approved'",
        [ids],
      );
      verificationRuns[workers] = { seconds, perMinute: (ids.length / seconds) * 60, approved: Number(rows[0]!.n) };
    }

    const cores = os.availableParallelism();
    console.log(`\n=== bench:scale (${cores} cores, PostgreSQL, one machine) ===\n`);
    console.log('init, 50 in flight spread over N API processes');
    console.log('  N | req/s  | vs 1  | p50 ms | p99 ms | errors');
    for (const [n, r] of Object.entries(initRuns)) {
      console.log(
        `  ${n} | ${fmt(r.rps).padStart(6)} | ${fmt(r.rps / initRuns[1]!.rps, 2).padStart(5)} | ${ms(r.p50).padStart(6)} | ${ms(r.p99).padStart(6)} | ${r.errors}`,
      );
    }
    console.log(`\nverifications (live mode, real pipeline, ${VERIFICATIONS} submitted at once), N worker processes`);
    console.log('  N | seconds | per minute | vs 1  | approved');
    for (const [n, r] of Object.entries(verificationRuns)) {
      console.log(
        `  ${n} | ${fmt(r.seconds).padStart(7)} | ${fmt(r.perMinute).padStart(10)} | ${fmt(r.perMinute / verificationRuns[1]!.perMinute, 2).padStart(5)} | ${r.approved}/${VERIFICATIONS}`,
      );
    }
    const busiest = Math.max(...Object.values(verificationRuns).map((r) => r.perMinute));
    console.log(
      `\nWhat bounds them here: ${cores} cores shared by every process, PostgreSQL and this load generator.` +
        ' Init: each API process writes one JSON log line per request on its one thread, so a second and a fourth' +
        ' process add throughput until the cores are full. Verifications: one worker runs max(2, cores) pipeline runs' +
        ' at once and a run waits between its stages, so the cores are partly idle; a second worker fills them' +
        ` (${fmt(busiest)} a minute, near the bound of about 50 a minute that 2.4 s of CPU per verification gives on 2 cores).`,
    );
    fs.mkdirSync('bench-results', { recursive: true });
    fs.writeFileSync(
      path.join('bench-results', 'scale.json'),
      JSON.stringify({ cores, seconds: SECONDS, init: initRuns, verifications: verificationRuns }, null, 2),
    );
  } finally {
    await db.end().catch(() => {});
    for (const c of children) c.kill('SIGKILL');
    await sleep(500);
    await scratch.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
