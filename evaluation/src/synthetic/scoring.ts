import { CLASSES, CLASS_NAMES, type EvalClass, type Split } from '@service/fixtures/eval-set';

/**
 * Scoring of evaluation results against each class's expectation, and the issue 9 targets
 * (item 6). A negative case is caught when its verdict is one its class expects and carries the
 * class's reason (any reason for a class without one); a genuine case is right when approved.
 */
export interface CaseResult {
  id: string;
  cls: EvalClass;
  verdict: 'approved' | 'review' | 'rejected' | 'failed';
  reasons: string[];
  scores: Record<string, number | null> | null;
  ms: number;
}

export function isCorrect(r: Pick<CaseResult, 'cls' | 'verdict' | 'reasons'>): boolean {
  const spec = CLASSES[r.cls];
  if (!spec.expected.includes(r.verdict as never)) return false;
  return spec.reason === null || r.reasons.includes(spec.reason);
}

export interface Timing {
  sequential: { p50: number; p95: number; n: number };
  inFlight: { p50: number; p95: number; n: number; concurrency: number };
  throughputPerSecond: number;
  stageMs: Record<string, number>;
  boundPerSecond: number;
  cores: number;
  /**
   * CPU time of one verification, every thread of an in-process pipeline counted (the OCR workers,
   * libvips' threads), one at a time: what the cores really spend, where the stage costs count
   * wall time (stages that overlap are both counted, threads running beside them are not).
   */
  cpuMsPerVerification?: number;
}

export interface ClassRow {
  cls: EvalClass;
  n: number;
  correct: number;
  verdicts: Record<string, number>;
  /** Reasons seen on this class's cases, with counts. */
  reasons: Record<string, number>;
}

export interface Target {
  what: string;
  value: string;
  met: boolean;
}

export interface SplitReport {
  split: Split;
  classes: ClassRow[];
  /** Per reason given: how many cases carried it, and on how many it was the class's own reason. */
  reasonPrecision: { reason: string; given: number; right: number }[];
  timing: Timing | null;
  targets: Target[];
  wrong: CaseResult[];
  results: CaseResult[];
}

const pctText = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');

export function scoreSplit(split: Split, results: CaseResult[], timing: Timing | null): SplitReport {
  const classes: ClassRow[] = CLASS_NAMES.filter((c) => results.some((r) => r.cls === c)).map((cls) => {
    const rs = results.filter((r) => r.cls === cls);
    const verdicts: Record<string, number> = { approved: 0, review: 0, rejected: 0, failed: 0 };
    const reasons: Record<string, number> = {};
    for (const r of rs) {
      verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
      for (const why of r.reasons) reasons[why] = (reasons[why] ?? 0) + 1;
    }
    return { cls, n: rs.length, correct: rs.filter(isCorrect).length, verdicts, reasons };
  });
  const given = new Map<string, { given: number; right: number }>();
  for (const r of results)
    for (const why of r.reasons) {
      const g = given.get(why) ?? { given: 0, right: 0 };
      g.given++;
      if (CLASSES[r.cls].reason === why) g.right++;
      given.set(why, g);
    }
  const genuine = results.filter((r) => !CLASSES[r.cls].negative);
  const negatives = results.filter((r) => CLASSES[r.cls].negative);
  const approvedGenuine = genuine.filter((r) => r.verdict === 'approved').length;
  const cleanGenuine = genuine.filter((r) => r.reasons.length === 0).length;
  const negApproved = negatives.filter((r) => r.verdict === 'approved').length;
  const negRows = classes.filter((c) => CLASSES[c.cls].negative);
  const worstNeg = negRows.reduce<ClassRow | null>((w, c) => (!w || c.correct / c.n < w.correct / w.n ? c : w), null);
  const targets: Target[] = [
    {
      what: 'genuine approved >= 95%',
      value: pctText(approvedGenuine, genuine.length),
      met: genuine.length > 0 && approvedGenuine / genuine.length >= 0.95,
    },
    {
      what: 'every negative class caught (expected verdict with its reason) >= 95%',
      value: worstNeg ? `worst ${worstNeg.cls} ${pctText(worstNeg.correct, worstNeg.n)}` : '-',
      met: negRows.every((c) => c.correct / c.n >= 0.95),
    },
    { what: '0 negatives approved', value: `${negApproved} of ${negatives.length}`, met: negApproved === 0 },
    {
      what: 'no reason on >= 90% of genuine cases',
      value: pctText(cleanGenuine, genuine.length),
      met: genuine.length > 0 && cleanGenuine / genuine.length >= 0.9,
    },
  ];
  if (timing) {
    const bound = timing.boundPerSecond;
    targets.push(
      { what: 'one at a time: p50 <= 800 ms', value: `${timing.sequential.p50.toFixed(0)} ms`, met: timing.sequential.p50 <= 800 },
      { what: 'one at a time: p95 <= 1500 ms', value: `${timing.sequential.p95.toFixed(0)} ms`, met: timing.sequential.p95 <= 1500 },
      {
        what: `${timing.inFlight.concurrency} in flight: p50 <= 2000 ms`,
        value: `${timing.inFlight.p50.toFixed(0)} ms`,
        met: timing.inFlight.p50 <= 2000,
      },
      {
        what: 'throughput >= 75% of the bound from stage costs',
        value: `${(timing.throughputPerSecond * 60).toFixed(0)}/min of ${(bound * 60).toFixed(0)}/min = ${((100 * timing.throughputPerSecond) / bound).toFixed(0)}%`,
        met: timing.throughputPerSecond >= 0.75 * bound,
      },
    );
  }
  return {
    split,
    classes,
    reasonPrecision: [...given].map(([reason, g]) => ({ reason, ...g })).sort((a, b) => b.given - a.given),
    timing,
    targets,
    wrong: results.filter((r) => !isCorrect(r)),
    results,
  };
}

export function formatReport(r: SplitReport): string {
  const V = ['approved', 'review', 'rejected', 'failed'];
  const lines = [
    '',
    `=== ${r.split} split: ${r.results.length} cases ===`,
    '',
    `${'class'.padEnd(24)} |   n | correct | ${V.map((v) => v.padStart(8)).join(' | ')} | expected -> reasons given`,
    `${'-'.repeat(24)}-|-----|---------|${V.map(() => '----------').join('|')}-|--------------------------`,
  ];
  for (const c of r.classes) {
    const spec = CLASSES[c.cls];
    const reasons = Object.entries(c.reasons)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(
      `${c.cls.padEnd(24)} | ${String(c.n).padStart(3)} | ${`${c.correct}/${c.n}`.padStart(7)} | ${V.map((v) => String(c.verdicts[v] ?? 0).padStart(8)).join(' | ')} | ${spec.expected.join('/')}${spec.reason ? ` + ${spec.reason}` : ''} -> ${reasons || '-'}`,
    );
  }
  lines.push('', 'reason precision (cases carrying it / of which the class expects it):');
  for (const p of r.reasonPrecision)
    lines.push(
      `  ${p.reason.padEnd(20)} ${String(p.given).padStart(4)} given, ${String(p.right).padStart(4)} right (${pctText(p.right, p.given)})`,
    );
  if (r.timing) {
    const t = r.timing;
    const stages = Object.entries(t.stageMs)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ');
    const total = Object.values(t.stageMs).reduce((a, b) => a + b, 0);
    lines.push(
      '',
      `latency submit -> verdict: one at a time p50 ${t.sequential.p50.toFixed(0)} ms, p95 ${t.sequential.p95.toFixed(0)} ms (${t.sequential.n} cases); ${t.inFlight.concurrency} in flight p50 ${t.inFlight.p50.toFixed(0)} ms, p95 ${t.inFlight.p95.toFixed(0)} ms (${t.inFlight.n} cases)`,
      `stage costs (ms per verification, in-process stageTimes, one at a time): ${stages}; total ${total.toFixed(0)} ms -> bound ${(t.boundPerSecond * 60).toFixed(0)}/min on ${t.cores} cores`,
      `throughput with ${t.inFlight.concurrency} in flight (uploads included): ${(t.throughputPerSecond * 60).toFixed(0)}/min`,
    );
    if (t.cpuMsPerVerification) {
      const cpuBound = (t.cores * 1000) / t.cpuMsPerVerification;
      lines.push(
        `CPU per verification (in process, all its threads, one at a time): ${t.cpuMsPerVerification.toFixed(0)} ms -> CPU bound ${(cpuBound * 60).toFixed(0)}/min on ${t.cores} cores; throughput ${pctText(t.throughputPerSecond, cpuBound)} of it (for information; the target below uses the stage costs)`,
      );
    }
  }
  lines.push('', `targets (issue 9 item 6${r.split === 'heldout' ? ', judged on this split' : ', for information: judged on heldout'}):`);
  for (const t of r.targets) lines.push(`  [${t.met ? 'met' : 'NOT met'}] ${t.what}: ${t.value}`);
  if (r.wrong.length) {
    lines.push('', `wrong (${r.wrong.length}, first 25):`);
    for (const w of r.wrong.slice(0, 25)) lines.push(`  ${w.id} -> ${w.verdict} ${JSON.stringify(w.reasons)} ${JSON.stringify(w.scores)}`);
  }
  return lines.join('\n');
}
