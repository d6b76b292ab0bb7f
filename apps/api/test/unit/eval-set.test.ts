import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Verification } from '../../src/db/types.js';
import { buildEvalSet, type EvalCase } from '../../src/eval/eval-set.js';
import { VisionPipeline } from '../../src/pipeline/vision-pipeline.js';

let pipeline: VisionPipeline;
let cases: EvalCase[];
beforeAll(async () => {
  [pipeline, cases] = await Promise.all([VisionPipeline.start({ ocrWorkers: 1, now: () => new Date('2026-11-21T12:00:00Z') }), buildEvalSet()]);
}, 90_000);
afterAll(() => pipeline?.stop());

describe('the evaluation set', () => {
  it('every case gets a verdict of its class', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const r = await pipeline.run({ submitted_full_name: c.typedName, active_liveness: false } as unknown as Verification, { docFront: c.docFront, docBack: null, selfie: c.selfie, liveness: null });
      if (!c.expected.includes(r.verdict)) wrong.push(`${c.id}: ${r.verdict} ${JSON.stringify(r.reasons)}`);
      if (c.cls === 'blurry_document' || c.cls === 'dark_document') expect(r.reasons, c.id).toContain('blurry_image');
    }
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(20);
  }, 180_000);
});
