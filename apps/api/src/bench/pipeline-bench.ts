/**
 * `npm run bench:pipeline`: the evaluation set through the real API (a service process on
 * PostgreSQL, workers warm). Prints per-class accuracy, a confusion table of verdicts, score
 * distributions, latency p50/p95 from submit to verdict, throughput, and the CPU time of each
 * stage measured in this process one stage at a time, so throughput can be read against the
 * bound those costs give (cores x 1000 / CPU ms per verification).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import sharp from 'sharp';
import { buildEvalSet, type EvalCase } from '../eval/eval-set.js';
import { face } from '../eval/synthetic-documents.js';
import { FaceAnalyzer } from '../pipeline/faces.js';
import { measureQuality } from '../pipeline/image-quality.js';
import { findMrzLines, parseMrz } from '../pipeline/mrz.js';
import { OcrEngine } from '../pipeline/ocr.js';
import { startListening } from './spawn-service.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = 'bench-admin-token-0123456789';
const cores = os.availableParallelism();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
};
const cpuMs = async (work: () => Promise<unknown>) => {
  const before = process.cpuUsage();
  await work();
  const d = process.cpuUsage(before);
  return (d.user + d.system) / 1000;
};

/**
 * CPU per stage, one stage at a time in this process, for every case with the stages the pipeline
 * really runs for it (free-text OCR only when no valid MRZ was read).
 */
async function stageCosts(cases: EvalCase[]) {
  const ocr = await OcrEngine.start({ textWorkers: 1, mrzWorkers: 1 });
  const faces = await FaceAnalyzer.start();
  await ocr.readText(cases[0]!.docFront); // warm
  await faces.analyse(cases[0]!.selfie);
  const sums = { quality: 0, mrz: 0, ocr: 0, faces: 0 };
  let ocrRuns = 0;
  for (const c of cases) {
    sums.quality += await cpuMs(async () => {
      await measureQuality(c.docFront);
      await measureQuality(c.selfie);
    });
    let valid = false;
    sums.mrz += await cpuMs(async () => {
      const lines = findMrzLines(await ocr.readMrzRegion(c.docFront));
      valid = Boolean(lines && parseMrz(lines));
    });
    if (!valid) {
      ocrRuns++;
      sums.ocr += await cpuMs(() => ocr.readText(c.docFront));
    }
    sums.faces += await cpuMs(async () => {
      await faces.analyse(c.docFront, 1024);
      await faces.analyse(c.selfie, 512);
    });
  }
  await ocr.stop();
  const n = cases.length;
  return { perCase: { quality: sums.quality / n, mrz: sums.mrz / n, ocr: sums.ocr / n, faces: sums.faces / n }, ocrRuns, ocrWhenRun: ocrRuns ? sums.ocr / ocrRuns : 0 };
}

async function main() {
  const cases = await buildEvalSet();
  console.log(`evaluation set: ${cases.length} cases; measuring stage CPU costs...`);
  const measured = await stageCosts(cases);
  const costs = measured.perCase;
  const perVerification = Object.values(costs).reduce((a, b) => a + b, 0);
  const bound = (cores * 1000) / perVerification;

  const dbName = `bench_pl_${process.pid}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-pl-'));
  let child: ChildProcess | null = null;
  const db = new pg.Client({ connectionString: url.toString() });
  try {
    const svc = await startListening(path.join(here, '..', 'main.js'), { DATABASE_URL: url.toString(), DATA_DIR: dataDir, PORT: '0', ADMIN_TOKEN: ADMIN, CLIENT_IP_HEADER: 'x-bench-ip', LOG_LEVEL: 'warn', DEMO: 'false' });
    child = svc.child;
    await db.connect();
    let ip = 0;
    const call = async (method: string, p: string, headers: Record<string, string>, body?: string | Buffer) => {
      const r = await fetch(`${svc.url}${p}`, { method, headers: { 'x-bench-ip': `10.7.${(ip >> 8) & 255}.${ip++ & 255}`, ...headers }, body });
      return (await r.json()) as any;
    };
    const tenants: any[] = [];
    for (let i = 0; i < 6; i++) tenants.push(await call('POST', '/admin/v1/tenants', { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' }, JSON.stringify({ name: 'bench', credits: 1000 })));
    let n = 0;
    const tenant = () => tenants[Math.floor(n++ / 25) % tenants.length];

    /** init + uploads; returns a submit function. */
    const prepare = async (typedName: string, images: [string, Buffer][], activeLiveness = false) => {
      const t = tenant();
      const init = await call('POST', '/v1/verify/init', { Authorization: `Bearer ${t.keys.publishable}`, 'Content-Type': 'application/json' }, JSON.stringify({ submittedFullName: typedName, activeLiveness }));
      for (const [role, bytes] of images) {
        if (role.startsWith('liveness-') && role !== 'liveness-anchor') continue;
        await call('PUT', `/v1/verify/upload/${init.verificationId}/${role}`, { 'X-Service-Upload-Token': init.uploads.selfie.headers['X-Service-Upload-Token'], 'Content-Type': 'image/jpeg', 'X-Service-Capture-Source': 'camera' }, bytes);
      }
      return { t, init };
    };
    const submit = (t: any, init: any, extra: object = {}) =>
      call('POST', '/v1/verify/submit', { Authorization: `Bearer ${t.keys.secret}`, 'Content-Type': 'application/json' }, JSON.stringify({ verificationId: init.verificationId, keys: { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key }, ...extra }));
    const waitDone = async (ids: string[]) => {
      for (;;) {
        const { rows } = await db.query(`select id, status, verdict, scores, reasons, extract(epoch from (completed_at - submitted_at)) * 1000 as ms, extract(epoch from completed_at) * 1000 as done_at from verifications where id = any($1)`, [ids]);
        if (rows.every((r) => r.status === 'completed' || r.status === 'failed')) return new Map(rows.map((r) => [r.id as string, r]));
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    // Warm-up: the worker loads its models on the first job.
    const warm = await prepare(cases[0]!.typedName, [['doc-front', cases[0]!.docFront], ['selfie', cases[0]!.selfie]]);
    await submit(warm.t, warm.init);
    await waitDone([warm.init.verificationId]);

    // Latency and accuracy: one verification at a time.
    const results: { c: EvalCase; verdict: string; ms: number; scores: any; reasons: string[] }[] = [];
    for (const c of cases) {
      const { t, init } = await prepare(c.typedName, [['doc-front', c.docFront], ['selfie', c.selfie]]);
      await submit(t, init);
      const r = (await waitDone([init.verificationId])).get(init.verificationId);
      results.push({ c, verdict: r.status === 'failed' ? 'failed' : r.verdict, ms: Number(r.ms), scores: r.scores, reasons: r.reasons ?? [] });
    }

    // Throughput: every case submitted at once.
    const prepared = [];
    for (const c of cases) prepared.push(await prepare(c.typedName, [['doc-front', c.docFront], ['selfie', c.selfie]]));
    const t0 = Date.now();
    await Promise.all(prepared.map(({ t, init }) => submit(t, init)));
    const done = await waitDone(prepared.map((p) => p.init.verificationId));
    const last = Math.max(...[...done.values()].map((r) => Number(r.done_at)));
    const throughput = prepared.length / ((last - t0) / 1000);

    // Liveness: anchor and 16 frames per verification (the cameraman turning; the beacon's poses
    // are random, so some steps cannot be shown by these fixtures; only latency is measured here).
    const liveLat: number[] = [];
    const cam = face('camera.png');
    for (let k = 0; k < 3; k++) {
      // Distinct frames (light and JPEG quality vary a little), all within what the detector finds.
      const frame = (i: number, flop: boolean) => {
        let s = sharp(cam);
        if (flop) s = s.flop();
        return s.modulate({ brightness: 0.9 + 0.006 * (i % 25) }).jpeg({ quality: 92 - (i % 7) }).toBuffer();
      };
      const { t, init } = await prepare('Lav Varshney', [['doc-front', cases[0]!.docFront], ['selfie', await frame(40 + k, false)], ['liveness-anchor', await frame(50 + k, false)]], true);
      const token = init.uploads.selfie.headers['X-Service-Upload-Token'];
      for (;;) {
        const beacon = await call('GET', `/v1/verify/challenge/${init.verificationId}/next`, { 'X-Service-Upload-Token': token });
        if (beacon.done) break;
        for (const [i, role] of beacon.roles.entries()) {
          await call('PUT', `/v1/verify/upload/${init.verificationId}/${role}`, { 'X-Service-Upload-Token': token, 'Content-Type': 'image/jpeg', 'X-Service-Capture-Source': 'camera' }, await frame(beacon.step * 4 + i + k * 20, beacon.pose === 'turn_left'));
        }
      }
      await submit(t, init);
      liveLat.push(Number((await waitDone([init.verificationId])).get(init.verificationId).ms));
    }

    // ---------------------------------------------------------------- report
    const classes = [...new Set(cases.map((c) => c.cls))];
    const verdicts = ['approved', 'review', 'rejected', 'failed'];
    const lines: string[] = ['', `bench:pipeline  ${cases.length} evaluation cases through the API (${cores} cores, workers warm, document front + selfie)`, ''];
    lines.push('class               | n | correct | ' + verdicts.map((v) => v.padStart(8)).join(' | '));
    lines.push('--------------------|---|---------|' + verdicts.map(() => '----------').join('|'));
    for (const cls of classes) {
      const rs = results.filter((r) => r.c.cls === cls);
      const correct = rs.filter((r) => r.c.expected.includes(r.verdict as never)).length;
      lines.push(`${cls.padEnd(19)} | ${rs.length} | ${`${correct}/${rs.length}`.padStart(7)} | ` + verdicts.map((v) => String(rs.filter((r) => r.verdict === v).length).padStart(8)).join(' | '));
    }
    const correctAll = results.filter((r) => r.c.expected.includes(r.verdict as never)).length;
    lines.push('', `overall accuracy: ${correctAll}/${results.length}`);
    const wrong = results.filter((r) => !r.c.expected.includes(r.verdict as never));
    for (const w of wrong) lines.push(`  wrong: ${w.c.id} -> ${w.verdict} ${JSON.stringify(w.reasons)} ${JSON.stringify(w.scores)}`);
    lines.push('', 'scores by class (min / median / max):');
    for (const cls of classes) {
      const rs = results.filter((r) => r.c.cls === cls && r.scores);
      const dist = (k: string) => {
        const xs = rs.map((r) => r.scores[k]).filter((x) => typeof x === 'number');
        return xs.length ? `${pct(xs, 0).toFixed(2)}/${pct(xs, 0.5).toFixed(2)}/${pct(xs, 0.999).toFixed(2)}` : '-';
      };
      lines.push(`  ${cls.padEnd(19)} ocr ${dist('document_ocr')}  name ${dist('name_match')}  face ${dist('face_match')}  quality ${dist('image_quality')}`);
    }
    const lat = results.map((r) => r.ms);
    lines.push('');
    lines.push(`latency submit -> verdict, one at a time: p50 ${pct(lat, 0.5).toFixed(0)} ms, p95 ${pct(lat, 0.95).toFixed(0)} ms (targets 1000 / 2000 ms)`);
    lines.push(`liveness verdict latency (anchor + 16 frames): p50 ${pct(liveLat, 0.5).toFixed(0)} ms (target 2500 ms)`);
    lines.push(`CPU per verification by stage (ms, mean over the set, one stage at a time): quality ${costs.quality.toFixed(0)}, mrz ${costs.mrz.toFixed(0)}, faces ${costs.faces.toFixed(0)}, free-text ocr ${costs.ocr.toFixed(0)} (run for ${measured.ocrRuns}/${cases.length} cases without a valid MRZ, ${measured.ocrWhenRun.toFixed(0)} ms each); total ${perVerification.toFixed(0)} ms`);
    lines.push(`throughput, ${prepared.length} at once: ${throughput.toFixed(2)}/s; bound from stage costs ${bound.toFixed(2)}/s (${cores} cores); ratio ${((100 * throughput) / bound).toFixed(0)}% (target 70%)`);
    console.log(lines.join('\n'));
    fs.mkdirSync('bench-results', { recursive: true });
    fs.writeFileSync(path.join('bench-results', 'pipeline.json'), JSON.stringify({ at: new Date().toISOString(), costs, ocrRuns: measured.ocrRuns, throughput, bound, latency: { p50: pct(lat, 0.5), p95: pct(lat, 0.95) }, liveness: liveLat, results: results.map((r) => ({ id: r.c.id, cls: r.c.cls, verdict: r.verdict, ms: r.ms, scores: r.scores, reasons: r.reasons })) }, null, 2));
  } finally {
    child?.kill('SIGKILL');
    await db.end().catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
