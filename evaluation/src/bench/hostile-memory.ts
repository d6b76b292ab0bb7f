/**
 * `npm run bench:hostile-memory`: 100 mixed runs (evaluation-set documents and hostile JPEGs:
 * corrupt, truncated, oversized header, 21,000 scans, 763x65000, CMYK, EXIF-rotated, huge ICC)
 * through the isolated pipeline, two at a time as a two-core worker runs them. Prints the resident
 * memory of this process and of the pipeline children at the start, at the peak and after the runs
 * (what `docs/operations.md` quotes), and how the runs ended.
 */
import os from 'node:os';
import { buildSmokeSet } from '@service/fixtures/smoke-set';
import { hostileSamples, plainJpeg } from '@service/fixtures/hostile-jpegs';
import type { VerificationImages } from '@service/api/pipeline/pipeline';
import { IsolatedPipeline } from '@service/api/pipeline-runner/isolated-pipeline';
import { processUsage } from '@service/api/pipeline-runner/process-usage';

const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const MiB = 1024 * 1024;

async function main(): Promise<void> {
  const evalSet = (await buildSmokeSet()).filter((c) => c.cls === 'genuine' || c.cls === 'genuine_distorted');
  const photo = await plainJpeg(800, 520);
  const hostile = await hostileSamples(photo, [6, 8]);
  const pipeline = new IsolatedPipeline({
    size: 2,
    budget: { wallMs: 55_000, cpuMs: 30_000, memoryBytes: 1024 * MiB },
  });
  while (pipeline.idleCount() < 2) await new Promise((r) => setTimeout(r, 200));

  const rss = () => {
    const children = pipeline.pids().map((p) => processUsage(p)?.rssBytes ?? 0);
    return { api: process.memoryUsage.rss(), children, total: process.memoryUsage.rss() + children.reduce((a, b) => a + b, 0) };
  };
  const start = rss();
  let peak = start.total;
  const sampler = setInterval(() => (peak = Math.max(peak, rss().total)), 100);

  const outcomes = new Map<string, number>();
  const pids = new Set<number>();
  let next = 0;
  const t0 = Date.now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= RUNS) return;
      // Two ordinary runs for every hostile one.
      const h = i % 3 === 2 ? hostile[Math.floor(i / 3) % hostile.length]! : null;
      const c = evalSet[i % evalSet.length]!;
      const images: VerificationImages = { docFront: h ? h[1] : c.docFront, docBack: null, selfie: c.selfie, liveness: null };
      for (const p of pipeline.pids()) pids.add(p);
      const key = await pipeline
        .run({ documentType: null, submittedFullName: c.typedName, country: null }, images)
        .then((o) => `${h ? h[0] : 'ordinary'}: ${o.verdict} ${o.reasons.join(',')}`)
        .catch((e: Error) => `${h ? h[0] : 'ordinary'}: error ${e.message}`);
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
  };
  await Promise.all([worker(), worker()]);
  clearInterval(sampler);
  for (const p of pipeline.pids()) pids.add(p);
  await new Promise((r) => setTimeout(r, 1000));
  const end = rss();
  const mb = (b: number) => `${Math.round(b / MiB)} MB`;
  console.log(
    `${RUNS} runs in ${Math.round((Date.now() - t0) / 1000)} s on ${os.availableParallelism()} cores (load average ${os.loadavg()[0]!.toFixed(1)})`,
  );
  console.log(`RSS at start: API process ${mb(start.api)}, children ${start.children.map(mb).join(' + ')}, total ${mb(start.total)}`);
  console.log(`RSS peak total: ${mb(peak)}`);
  console.log(`RSS after:    API process ${mb(end.api)}, children ${end.children.map(mb).join(' + ')}, total ${mb(end.total)}`);
  console.log(`pipeline processes used: ${pids.size} (2 at a time; the rest replaced after a kill or a memory recycle)`);
  for (const [k, n] of [...outcomes].sort()) console.log(`  ${String(n).padStart(3)}  ${k}`);
  await pipeline.stop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
