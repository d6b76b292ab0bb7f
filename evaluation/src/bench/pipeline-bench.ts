/**
 * `npm run bench:pipeline [-- --per-class N] [--split dev|heldout] [--sequential N] [--no-liveness]`:
 * the evaluation set (tools/fixtures' generator, both splits) through the real API: a service process on
 * PostgreSQL, workers warm, document front (+ back) and selfie, init fields as a user's client
 * sends them. For each split it prints, per class, the confusion table of verdicts and whether the
 * class's expected reason came with them; the precision of every reason given; latency submit ->
 * verdict one at a time (a stratified sample) and with 4 in flight (every case); throughput with 4
 * in flight against the bound from stage costs (`stageTimes` of in-process runs of the sample:
 * cores x 1000 / ms per verification); the issue's targets met or not; and the latency of a
 * verification with active liveness (anchor + 16 frames), for a user who shows every pose and for
 * one who turns one way only.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { CLASSES, CLASS_NAMES, caseClasses, stratifiedIndexes, type EvalCase, type Split } from '@service/fixtures/eval-set';
import { loadSplit } from '../synthetic/eval-set-files.js';
import { face } from '@service/fixtures/synthetic-documents';
import { SAMPLE_PERSON } from '@service/fixtures/pose-frames';
import { VisionPipeline } from '@service/api/pipeline/vision-pipeline';
import { chosenOcrEngine } from '@service/api/pipeline/read/ocr/ocr';
import { processUsage } from '@service/api/pipeline-runner/process-usage';
import { formatReport, scoreSplit, type CaseResult, type SplitReport } from '../synthetic/scoring.js';
import { startListening } from './spawn-service.js';
import { API_MAIN, REPO_ROOT } from '../paths.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = 'bench-admin-token-0123456789';
const cores = os.availableParallelism();
const IN_FLIGHT = 4;
/**
 * How often a case's verdict is looked for in the database. Latency is the database's own
 * completed_at - submitted_at, so this only delays the next case of a client, by half of it on
 * average. At 20 ms, PostgreSQL and this process spent 0.15 s of CPU a verification under 4 in
 * flight, on the cores the service runs on; at 100 ms, 0.08 s (docs/pipeline.md, forty-fourth round).
 */
const VERDICT_POLL_MS = 100;
/** The Tesseract build the service and this process read with (OCR_ENGINE, default auto). */
const ocrEngine = chosenOcrEngine();

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const perClass = arg('per-class') ? Number(arg('per-class')) : null;
const splits: Split[] = arg('split') ? [arg('split') as Split] : ['dev', 'heldout'];
const sequentialPerClass = Number(arg('sequential') ?? 2);
const withLiveness = !process.argv.includes('--no-liveness');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
};

/**
 * Stage costs: the sample through an in-process pipeline, one case at a time, summing `stageTimes`;
 * and the CPU time of a verification (this process's, every thread: nothing else runs in it then,
 * plus its native OCR engines' processes).
 */
async function stageCosts(cases: EvalCase[]): Promise<{ stages: Record<string, number>; cpuMs: number }> {
  const pipeline = await VisionPipeline.start({ ocrWorkers: 1 });
  try {
    const sums: Record<string, number> = {};
    await pipeline.run(request(cases[0]!), images(cases[0]!)); // warm
    const engines = pipeline.ocrEngine.pids;
    const enginesCpu = () => engines.reduce((sum, pid) => sum + (processUsage(pid)?.cpuMs ?? 0), 0);
    const cpu = process.cpuUsage();
    const engineCpu = enginesCpu();
    for (const c of cases) {
      const out = await pipeline.run(request(c), images(c));
      for (const [k, v] of Object.entries(out.stageTimes ?? {})) sums[k] = (sums[k] ?? 0) + v;
    }
    const used = process.cpuUsage(cpu);
    const engineUsed = enginesCpu() - engineCpu;
    return {
      stages: Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / cases.length])),
      cpuMs: ((used.user + used.system) / 1000 + engineUsed) / cases.length,
    };
  } finally {
    await pipeline.stop();
  }
}
const request = (c: EvalCase) => ({ submittedFullName: c.typedName, documentType: c.documentType, country: c.country });
const images = (c: EvalCase) => ({ docFront: c.docFront, docBack: c.docBack, selfie: c.selfie, liveness: null });

async function main() {
  const dbName = `bench_pl_${process.pid}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-pl-'));
  let child: ChildProcess | null = null;
  // A pool: four cases wait on their verdicts at once.
  const db = new pg.Pool({ connectionString: url.toString(), max: IN_FLIGHT + 1 });
  const reports: SplitReport[] = [];
  try {
    const svc = await startListening(API_MAIN, {
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PORT: '0',
      ADMIN_TOKEN: ADMIN,
      CLIENT_IP_HEADER: 'x-bench-ip',
      LOG_LEVEL: 'warn',
      DEMO: 'false',
    });
    child = svc.child;
    let ip = 0;
    const call = async (method: string, p: string, headers: Record<string, string>, body?: string | Buffer) => {
      const r = await fetch(`${svc.url}${p}`, {
        method,
        headers: { 'x-bench-ip': `10.7.${(ip >> 8) & 255}.${ip++ & 255}`, ...headers },
        body,
      });
      return (await r.json()) as any;
    };
    // Enough tenants that no per-tenant limit (submit: 30 a minute) is reached.
    const tenants: any[] = [];
    for (let i = 0; i < 24; i++)
      tenants.push(
        await call(
          'POST',
          '/admin/v1/tenants',
          { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
          JSON.stringify({ name: 'bench', credits: 100000 }),
        ),
      );
    let n = 0;
    const tenant = () => tenants[n++ % tenants.length];

    const prepare = async (
      c: Pick<EvalCase, 'typedName' | 'documentType' | 'country'>,
      uploads: [string, Buffer][],
      activeLiveness = false,
    ) => {
      const t = tenant();
      const init = await call(
        'POST',
        '/v1/verify/init',
        { Authorization: `Bearer ${t.keys.publishable}`, 'Content-Type': 'application/json' },
        JSON.stringify({
          submittedFullName: c.typedName,
          activeLiveness,
          ...(c.documentType ? { documentType: c.documentType } : {}),
          ...(c.country ? { country: c.country } : {}),
        }),
      );
      for (const [role, bytes] of uploads) {
        const r = await call(
          'PUT',
          `/v1/verify/upload/${init.verificationId}/${role}`,
          {
            'X-Service-Upload-Token': init.uploads.selfie.headers['X-Service-Upload-Token'],
            'Content-Type': 'image/jpeg',
            'X-Service-Capture-Source': 'camera',
          },
          bytes,
        );
        if (!r.ok) throw new Error(`upload ${role} refused: ${JSON.stringify(r)}`);
      }
      return { t, init, back: uploads.some(([r]) => r === 'doc-back') };
    };
    const uploadsOf = (c: EvalCase): [string, Buffer][] => [
      ['doc-front', c.docFront],
      ...(c.docBack ? ([['doc-back', c.docBack]] as [string, Buffer][]) : []),
      ['selfie', c.selfie],
    ];
    const submit = (p: Awaited<ReturnType<typeof prepare>>) =>
      call(
        'POST',
        '/v1/verify/submit',
        { Authorization: `Bearer ${p.t.keys.secret}`, 'Content-Type': 'application/json' },
        JSON.stringify({
          verificationId: p.init.verificationId,
          keys: {
            docFront: p.init.uploads.docFront.key,
            selfie: p.init.uploads.selfie.key,
            ...(p.back ? { docBack: p.init.uploads.docBack.key } : {}),
          },
        }),
      );
    const waitDone = async (id: string) => {
      for (;;) {
        const { rows } = await db.query(
          `select status, verdict, scores, reasons, extract(epoch from (completed_at - submitted_at)) * 1000 as ms from verifications where id = $1`,
          [id],
        );
        const r = rows[0];
        if (r && (r.status === 'completed' || r.status === 'failed')) return r;
        await new Promise((res) => setTimeout(res, VERDICT_POLL_MS));
      }
    };
    const runCase = async (c: EvalCase): Promise<CaseResult> => {
      const p = await prepare(c, uploadsOf(c));
      await submit(p);
      const r = await waitDone(p.init.verificationId);
      return {
        id: c.id,
        cls: c.cls,
        verdict: r.status === 'failed' ? 'failed' : r.verdict,
        reasons: r.reasons ?? [],
        scores: r.scores,
        ms: Number(r.ms),
      };
    };

    console.log(`OCR: ${ocrEngine} Tesseract (OCR_ENGINE=${process.env.OCR_ENGINE ?? 'auto'}); ${cores} cores`);
    for (const split of splits) {
      const indexes = perClass ? stratifiedIndexes(split, perClass) : caseClasses(split).map((_, i) => i);
      const started = Date.now();
      const { cases, fromDisk } = await loadSplit(split, indexes);
      console.log(
        `${split}: ${cases.length} cases (${fromDisk} from eval-set/, ${cases.length - fromDisk} built in ${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
      if (reports.length === 0) await runCase(cases[0]!); // warm-up: the worker loads its models on its first job

      // Every case, 4 in flight: verdicts, latency under load, throughput.
      const results: CaseResult[] = new Array<CaseResult>(cases.length);
      let next = 0;
      const t0 = Date.now();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          for (let k = next++; k < cases.length; k = next++) results[k] = await runCase(cases[k]!);
        }),
      );
      const wall = (Date.now() - t0) / 1000;
      // Throughput counts the uploads too (as a client sees it); the verdict latency does not.
      const throughput = cases.length / wall;

      // A stratified sample one at a time: latency without contention, and the stage costs.
      const sampleIds = new Set(stratifiedIndexes(split, sequentialPerClass));
      const sample = cases.filter((c) => sampleIds.has(c.index));
      const sequential: number[] = [];
      for (const c of sample) sequential.push((await runCase(c)).ms);
      const { stages: costs, cpuMs } = await stageCosts(sample);
      const perVerification = Object.values(costs).reduce((a, b) => a + b, 0);
      reports.push(
        scoreSplit(split, results, {
          sequential: { p50: pct(sequential, 0.5), p95: pct(sequential, 0.95), n: sequential.length },
          inFlight: {
            p50: pct(
              results.map((r) => r.ms),
              0.5,
            ),
            p95: pct(
              results.map((r) => r.ms),
              0.95,
            ),
            n: results.length,
            concurrency: IN_FLIGHT,
          },
          throughputPerSecond: throughput,
          stageMs: costs,
          boundPerSecond: (cores * 1000) / perVerification,
          cores,
          cpuMsPerVerification: cpuMs,
        }),
      );
      console.log(formatReport(reports[reports.length - 1]!));
    }

    // Liveness: anchor and 16 frames, two ways. The sample person of @service/testing (a frontal
    // face, each pose rendered, a specimen passport of hers): a genuine user who shows every pose,
    // whose steps are decided after 3 frames each, approved. And the cameraman of camera.png, who
    // turns one way only: the steps asked otherwise cannot be shown and are given up after 2
    // frames (the beacon's poses are random). Frames differ in light and JPEG quality, as a
    // camera's do, so no picture serves two beacons.
    if (withLiveness) {
      const variant = (bytes: Buffer | string, i: number, flop = false) => {
        let s = sharp(bytes);
        if (flop) s = s.flop();
        return s
          .modulate({ brightness: 0.9 + 0.006 * (i % 25) })
          .jpeg({ quality: 92 - (i % 7) })
          .toBuffer();
      };
      const sampleDir = path.join(REPO_ROOT, 'packages', 'testing', 'frames');
      const sample = (pose: string) => fs.readFileSync(path.join(sampleDir, `${pose}.jpg`));
      const cam = face('camera.png');
      const series = [
        {
          what: 'the sample person, every pose shown',
          typedName: `${SAMPLE_PERSON.givenNames} ${SAMPLE_PERSON.surname}`,
          doc: sample('document'),
          front: (i: number) => variant(sample('front'), i),
          posed: (pose: string, i: number) => variant(sample(pose), i),
        },
        {
          what: 'the cameraman, one way only',
          typedName: 'Lav Varshney',
          doc: (await loadSplit('dev', [0])).cases[0]!.docFront,
          front: (i: number) => variant(cam, i),
          posed: (pose: string, i: number) => variant(cam, i, pose === 'turn_right'),
        },
      ];
      for (const one of series) {
        const liveLat: number[] = [];
        const verdicts: string[] = [];
        for (let k = 0; k < 3; k++) {
          const p = await prepare(
            { typedName: one.typedName, documentType: null, country: null },
            [
              ['doc-front', one.doc],
              ['selfie', await one.front(40 + k)],
              ['liveness-anchor', await one.front(50 + k)],
            ],
            true,
          );
          const token = p.init.uploads.selfie.headers['X-Service-Upload-Token'];
          for (;;) {
            const beacon = await call('GET', `/v1/verify/challenge/${p.init.verificationId}/next`, { 'X-Service-Upload-Token': token });
            if (beacon.done) break;
            for (const [i, role] of beacon.roles.entries())
              await call(
                'PUT',
                `/v1/verify/upload/${p.init.verificationId}/${role}`,
                { 'X-Service-Upload-Token': token, 'Content-Type': 'image/jpeg', 'X-Service-Capture-Source': 'camera' },
                await one.posed(beacon.pose, beacon.step * 4 + i + k * 20),
              );
          }
          await submit(p);
          const done = await waitDone(p.init.verificationId);
          liveLat.push(Number(done.ms));
          verdicts.push(`${done.verdict ?? done.status} (liveness ${done.scores?.liveness ?? null})`);
        }
        console.log(
          `\nliveness verdict latency, ${one.what} (anchor + 16 frames, 3 runs): p50 ${pct(liveLat, 0.5).toFixed(0)} ms (target 2500 ms); ${verdicts.join(', ')}`,
        );
      }
    }
    fs.mkdirSync('bench-results', { recursive: true });
    fs.writeFileSync(
      path.join('bench-results', 'pipeline.json'),
      JSON.stringify({ at: new Date().toISOString(), cores, ocrEngine, reports }, null, 1),
    );
    console.log(`\nclasses: ${CLASS_NAMES.map((c) => `${c} (${CLASSES[c].what})`).join('; ')}`);
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
