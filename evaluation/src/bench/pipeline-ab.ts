/**
 * `node evaluation/dist/bench/pipeline-ab.js --baseline <dir> [--split dev|heldout] [--seed S] [--per-class N]`:
 * this pipeline against another build of it (`<dir>`: an `apps/api/dist` of another commit, e.g. a
 * `git worktree` of the last release built with `npm ci && npm run build`), in one process, case by
 * case, the order alternated, one at a time as a child alone on the machine runs them. Prints
 * each one's right-as-labelled count, genuine approvals, negatives approved, p50 / p95 / mean of a
 * run, and the per-case ratio of this one's time to the baseline's (the machine's load cancels
 * out of the ratio, not out of the times).
 */
import { parseArgs } from 'node:util';
import { buildCase, stratifiedIndexes, type Split } from '@service/fixtures/eval-set';
import type { VerificationPipeline } from '@service/api/pipeline/pipeline';
import { VisionPipeline } from '@service/api/pipeline/vision-pipeline';
import { isCorrect } from '../synthetic/scoring.js';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    split: { type: 'string', default: 'dev' },
    seed: { type: 'string' },
    'per-class': { type: 'string', default: '3' },
  },
});
if (!values.baseline) throw new Error('--baseline <apps/api/dist of another build> is required');
const split = values.split as Split;
const NOW = new Date('2026-12-07T12:00:00Z');

type Started = VerificationPipeline & { stop(): Promise<void> };
const { VisionPipeline: Baseline } = (await import(`${values.baseline}/pipeline/vision-pipeline.js`)) as {
  VisionPipeline: { start(o: { ocrWorkers: number; now: () => Date }): Promise<Started> };
};
const [baseline, current] = await Promise.all([
  Baseline.start({ ocrWorkers: 2, now: () => NOW }),
  VisionPipeline.start({ ocrWorkers: 2, now: () => NOW }),
]);

interface Run {
  ms: number;
  verdict: string;
  ok: boolean;
}
const rows: { id: string; cls: string; baseline: Run; current: Run }[] = [];
const indexes = stratifiedIndexes(split, Number(values['per-class']));
for (const [k, i] of indexes.entries()) {
  const c = await buildCase(split, i, values.seed);
  const request = { submittedFullName: c.typedName, documentType: c.documentType, country: c.country };
  const images = { docFront: c.docFront, docBack: c.docBack, selfie: c.selfie, liveness: null };
  const runs: Partial<Record<'baseline' | 'current', Run>> = {};
  const order = k % 2 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const);
  for (const name of order) {
    const start = performance.now();
    const o = await (name === 'current' ? current : baseline).run(request, images, { alone: true });
    runs[name] = {
      ms: performance.now() - start,
      verdict: o.verdict,
      ok: isCorrect({ cls: c.cls, verdict: o.verdict, reasons: o.reasons }),
    };
  }
  rows.push({ id: c.id, cls: c.cls, baseline: runs.baseline!, current: runs.current! });
  process.stderr.write(`\r${rows.length}/${indexes.length}`);
}
process.stderr.write('\n');
await Promise.all([baseline.stop(), current.stop()]);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
for (const name of ['baseline', 'current'] as const) {
  const ms = rows.map((r) => r[name].ms);
  const genuine = rows.filter((r) => r.cls.startsWith('genuine'));
  const negatives = rows.filter((r) => !r.cls.startsWith('genuine'));
  console.log(
    `${name}: right ${rows.filter((r) => r[name].ok).length}/${rows.length}, genuine approved ` +
      `${genuine.filter((r) => r[name].verdict === 'approved').length}/${genuine.length}, negatives approved ` +
      `${negatives.filter((r) => r[name].verdict === 'approved').length}/${negatives.length}; p50 ${Math.round(quantile(ms, 0.5))} ms, ` +
      `p95 ${Math.round(quantile(ms, 0.95))} ms, mean ${Math.round(ms.reduce((a, b) => a + b, 0) / ms.length)} ms`,
  );
}
const ratios = rows.map((r) => r.current.ms / r.baseline.ms);
console.log(`current / baseline, per case: median ${quantile(ratios, 0.5).toFixed(2)}, p90 ${quantile(ratios, 0.9).toFixed(2)}`);
for (const r of rows)
  if (r.current.ok !== r.baseline.ok) console.log(`${r.id}: baseline ${r.baseline.verdict}, current ${r.current.verdict}`);
