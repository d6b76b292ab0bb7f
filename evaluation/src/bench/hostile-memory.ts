/**
 * `npm run bench:hostile-memory`: the whole service's memory (the API process and everything it
 * started: pipeline children and their OCR engines) through the real flow, as an operator meets
 * it. The built service runs on a scratch PostgreSQL database with its defaults (one pipeline
 * child per core, at least two); this process only sends requests and reads /proc.
 *
 * 1. At start, once the children are warm.
 * 2. A burst of hostile images sent at once by four tenants: four tall text images (763 x 65,000,
 *    the OCR's worst case) and the rest of the hostile catalogue (corrupt, truncated, oversized
 *    header, 21,000 scans, CMYK, huge ICC, EXIF-rotated); then 30 s at rest.
 * 3. 100 ordinary verifications (evaluation documents, genuine), four in flight; then 30 s at rest.
 *
 * Prints the total resident memory at start, its peak (sampled every 100 ms), at rest 30 s after
 * each phase, and the ordinary runs' time from submit to verdict (p50, p95) and rate, so a memory
 * setting is judged with its speed. Writes bench-results/hostile-memory.json.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hostileSamples, plainJpeg, tallJpeg } from '@service/fixtures/hostile-jpegs';
import { buildSmokeSet } from '@service/fixtures/smoke-set';
import { processUsage } from '@service/api/pipeline-runner/process-usage';
import { withScratchService } from './scratch-service.js';
import { createTenants, type BenchTenant } from './tenants.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ORDINARY = Number(process.env.BENCH_RUNS ?? 100);
const IN_FLIGHT = 4;
const REST_MS = Number(process.env.BENCH_REST_SECONDS ?? 30) * 1000;
const ADMIN = 'bench-admin-token-0123456789';
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (b: number) => `${Math.round(b / MiB).toLocaleString('en')} MB`;

let ip = 0;
async function call(base: string, method: string, p: string, key: string | null, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      'x-bench-client-ip': `10.9.${(ip >> 8) & 255}.${ip++ & 255}`,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** init, upload both images, submit (live mode: the real pipeline). Resolves with the id and the submit time. */
async function submit(base: string, t: BenchTenant, name: string, docFront: Buffer, selfie: Buffer) {
  const init = await call(base, 'POST', '/v1/verify/init', t.keys.publishable, { submittedFullName: name });
  for (const [slot, bytes] of [
    ['docFront', docFront],
    ['selfie', selfie],
  ] as const) {
    const s = init.uploads[slot];
    const r = await fetch(s.url, {
      method: 'PUT',
      headers: { ...s.headers, 'x-bench-client-ip': `10.8.0.${ip++ & 255}` },
      body: new Uint8Array(bytes),
    });
    if (r.status !== 200) throw new Error(`upload ${slot}: ${r.status} ${await r.text()}`);
  }
  await call(base, 'POST', '/v1/verify/submit', t.keys.secret, {
    verificationId: init.verificationId,
    keys: { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key },
  });
  return { id: init.verificationId as string, submittedAt: performance.now() };
}

async function verdict(base: string, t: BenchTenant, id: string): Promise<{ status: string; verdict: string | null; reasons: string[] }> {
  for (;;) {
    const r = await call(base, 'GET', `/v1/verify/${id}`, t.keys.secret);
    if (r.status === 'completed' || r.status === 'failed') return r;
    await sleep(100);
  }
}

async function main() {
  const env = { ADMIN_TOKEN: ADMIN, CLIENT_IP_HEADER: 'x-bench-client-ip', LOG_LEVEL: 'warn', DEMO: 'false' };
  await withScratchService(BASE_URL, 'bench_memory', env, (s) => measure(s.url, s.child));
}

async function measure(url: string, child: ChildProcess): Promise<void> {
  const pid = child.pid!;
  const total = () => processUsage(pid)?.rssBytes ?? 0;
  const childPids = () =>
    fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((t) => fs.readFileSync(`/proc/${pid}/task/${t}/children`, 'latin1').trim().split(/\s+/).filter(Boolean).map(Number));
  const pipelineProcesses = () => childPids().length;
  /** "API 180 MB + children 400 + 410 MB" (each child with its OCR engines). */
  const breakdown = () => {
    const children = childPids().map((c) => processUsage(c)?.rssBytes ?? 0);
    const api = total() - children.reduce((a, b) => a + b, 0);
    return `API ${mb(api)} + ${children.length} children ${children.map((c) => Math.round(c / MiB)).join(' + ')} MB`;
  };
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, total())), 100);
  try {
    // Warm: the children have loaded their models (their RSS stops growing).
    let last = 0;
    for (let stable = 0; stable < 5; await sleep(1000)) {
      const now = total();
      stable = Math.abs(now - last) < 4 * MiB && pipelineProcesses() >= 2 ? stable + 1 : 0;
      last = now;
    }
    const atStart = total();
    const startParts = breakdown();
    peak = atStart;
    const tenants = await createTenants(url, ADMIN, 8, 1000);
    const evalSet = (await buildSmokeSet()).filter((c) => c.cls === 'genuine' || c.cls === 'genuine_distorted');
    const photo = await plainJpeg(800, 520);
    const selfie = evalSet[0]!.selfie;

    // 2. The hostile burst, all at once from four tenants.
    const tall = await tallJpeg();
    const hostile: [string, Buffer][] = [
      ...[1, 2, 3, 4].map((i) => [`763x65000 with text #${i}`, tall] as [string, Buffer]),
      ...(await hostileSamples(photo, [6, 8])).filter(([n]) => !n.startsWith('763x65000')),
    ];
    const t0 = performance.now();
    const burst = await Promise.all(
      hostile.map(([name, bytes], i) => submit(url, tenants[i % 4]!, 'Ana Martinez', bytes, selfie).then((s) => ({ name, i, ...s }))),
    );
    const burstOutcomes = await Promise.all(
      burst.map((b) =>
        verdict(url, tenants[b.i % 4]!, b.id).then((v) => `${b.name}: ${v.status} ${v.verdict ?? ''} ${v.reasons.join(',')}`),
      ),
    );
    const burstSeconds = (performance.now() - t0) / 1000;
    const burstPeak = peak;
    await sleep(REST_MS);
    const afterBurst = total();
    const burstParts = breakdown();

    // 3. Ordinary verifications, four in flight, each from two tenants in turn (a tenant's jobs run
    // one at a time, and its submits are limited to 30 a minute).
    peak = afterBurst;
    const latencies: number[] = [];
    const outcomes = new Map<string, number>();
    let next = 0;
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async (_, w) => {
        for (;;) {
          const i = next++;
          if (i >= ORDINARY) return;
          const c = evalSet[i % evalSet.length]!;
          const t = tenants[w + (i % 2) * IN_FLIGHT]!;
          const s = await submit(url, t, c.typedName, c.docFront, c.selfie);
          const v = await verdict(url, t, s.id);
          latencies.push(performance.now() - s.submittedAt);
          const key = `${v.status} ${v.verdict ?? ''} ${v.reasons.join(',')}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }
      }),
    );
    const ordinarySeconds = (performance.now() - t1) / 1000;
    const ordinaryPeak = peak;
    await sleep(REST_MS);
    const afterOrdinary = total();
    const ordinaryParts = breakdown();

    latencies.sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
    const overallPeak = Math.max(burstPeak, ordinaryPeak);
    const rest = REST_MS / 1000;
    console.log(
      `the whole service (API process, pipeline children, their OCR engines), ${os.availableParallelism()} cores, load average ${os.loadavg()[0]!.toFixed(1)}:`,
    );
    console.log(`  at start (warm):                          ${mb(atStart)} (${startParts})`);
    console.log(`  hostile burst (${hostile.length} at once) in ${burstSeconds.toFixed(0)} s, peak  ${mb(burstPeak)}`);
    console.log(`  at rest ${rest} s after the burst:             ${mb(afterBurst)} (${burstParts})`);
    console.log(`  ${ORDINARY} ordinary, ${IN_FLIGHT} in flight, in ${ordinarySeconds.toFixed(0)} s, peak ${mb(ordinaryPeak)}`);
    console.log(`  at rest ${rest} s after them:                  ${mb(afterOrdinary)} (${ordinaryParts})`);
    console.log(`  peak overall ${mb(overallPeak)}`);
    console.log(
      `ordinary runs, submit to verdict: p50 ${Math.round(q(0.5))} ms, p95 ${Math.round(q(0.95))} ms; ` +
        `${((ORDINARY / ordinarySeconds) * 60).toFixed(0)} per minute`,
    );
    console.log(
      `targets: at rest < 1,000 MB: ${afterBurst < 1000 * MiB && afterOrdinary < 1000 * MiB ? 'met' : 'NOT met'}; peak < 1,500 MB: ${overallPeak < 1500 * MiB ? 'met' : 'NOT met'}`,
    );
    console.log('hostile outcomes:');
    for (const o of burstOutcomes.sort()) console.log(`  ${o}`);
    console.log('ordinary outcomes:');
    for (const [k, n] of [...outcomes].sort()) console.log(`  ${String(n).padStart(3)}  ${k}`);

    const out = 'bench-results';
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(
      path.join(out, 'hostile-memory.json'),
      JSON.stringify(
        {
          atStartMb: atStart / MiB,
          burstPeakMb: burstPeak / MiB,
          afterBurstMb: afterBurst / MiB,
          ordinaryPeakMb: ordinaryPeak / MiB,
          afterOrdinaryMb: afterOrdinary / MiB,
          p50Ms: q(0.5),
          p95Ms: q(0.95),
          perMinute: (ORDINARY / ordinarySeconds) * 60,
          burstOutcomes,
          outcomes: Object.fromEntries(outcomes),
        },
        null,
        2,
      ),
    );
  } finally {
    clearInterval(sampler);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
