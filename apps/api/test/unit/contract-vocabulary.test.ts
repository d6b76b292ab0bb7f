import { INVALID_BODY_REASONS, FAILURE_CODES, SUBMIT_REASONS, UPLOAD_REASONS } from '@service/contract';
import { describe, expect, it } from 'vitest';
import { invalidBody } from '../../src/http/api-error.js';
import { PermanentPipelineError } from '../../src/pipeline/pipeline.js';

describe('contract vocabulary', () => {
  it('lets only contract reasons and failure codes compile (checked by npm run typecheck)', () => {
    expect(invalidBody('not_a_jpeg', 'x').detail?.reason).toBe('not_a_jpeg');
    // @ts-expect-error a reason that is in no contract list does not compile
    expect(invalidBody('made_up_reason', 'x').status).toBe(400);
    // @ts-expect-error a job failure code is not a detail.reason
    invalidBody('pipeline_error', 'x');
    expect(new PermanentPipelineError('selfie_disappeared', 'x').code).toBe('selfie_disappeared');
    // @ts-expect-error nor the reverse
    new PermanentPipelineError('not_a_jpeg', 'x');
  });

  it('lists every reason once, and job failure codes apart from upload reasons', () => {
    expect(new Set(INVALID_BODY_REASONS).size).toBe(INVALID_BODY_REASONS.length);
    expect([...UPLOAD_REASONS, ...SUBMIT_REASONS].every((r) => (INVALID_BODY_REASONS as readonly string[]).includes(r))).toBe(true);
    expect(FAILURE_CODES.filter((c) => (UPLOAD_REASONS as readonly string[]).includes(c))).toEqual([]);
  });
});
