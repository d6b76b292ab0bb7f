/**
 * `npm run eval:quick [-- --split dev|heldout] [--per-class N] [--class name[,name...]]`: the evaluation
 * set through the pipeline in this process, one case at a time (no database, no HTTP): the
 * per-class report of `bench:pipeline` without its latency figures, in a few minutes. For tuning
 * on the development split; the held-out split is for reporting, after the tuning is done.
 */
import { loadSplit } from './eval-set-files.js';
import { caseClasses, stratifiedIndexes, type Split } from '@service/fixtures/eval-set';
import { formatReport, scoreSplit, type CaseResult } from './scoring.js';
import { VisionPipeline } from '@service/api/pipeline/vision-pipeline';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const split = (arg('split') ?? 'dev') as Split;
const perClass = Number(arg('per-class') ?? 4);
const onlyClasses = arg('class')?.split(',');
// The evaluation set's documents are dated against this day (the same as the subset test).
const NOW = new Date('2026-11-23T12:00:00Z');

const indexes = stratifiedIndexes(split, perClass).filter((i) => !onlyClasses || onlyClasses.includes(caseClasses(split)[i]!));
const [{ cases }, pipeline] = await Promise.all([loadSplit(split, indexes), VisionPipeline.start({ ocrWorkers: 1, now: () => NOW })]);
const results: CaseResult[] = [];
try {
  for (const c of cases) {
    const started = performance.now();
    const r = await pipeline.run(
      { submittedFullName: c.typedName, documentType: c.documentType, country: c.country },
      { docFront: c.docFront, docBack: c.docBack, selfie: c.selfie, liveness: null },
    );
    results.push({ id: c.id, cls: c.cls, verdict: r.verdict, reasons: r.reasons, scores: r.scores, ms: performance.now() - started });
  }
} finally {
  await pipeline.stop();
}
console.log(formatReport(scoreSplit(split, results, null)));
