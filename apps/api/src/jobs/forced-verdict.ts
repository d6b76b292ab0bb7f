import { SCORE_NAMES, TEST_MODE_FORCED_VERDICTS, type Scores } from '@service/contract';
import type { Verification } from '../db/types.js';
import { NO_FIELDS, type VerificationOutcome } from '../pipeline/pipeline.js';

/**
 * Test mode only: the magic names `Test Approve`, `Test Review`, `Test Reject` (any case) force the
 * verdict; scores stay null because nothing was measured. Live mode never forces anything.
 */
export function forcedOutcome(v: Pick<Verification, 'mode' | 'submitted_full_name'>): VerificationOutcome | null {
  if (v.mode !== 'test' || !v.submitted_full_name) return null;
  const verdict = TEST_MODE_FORCED_VERDICTS[v.submitted_full_name.trim().toLowerCase()];
  if (!verdict) return null;
  return {
    verdict,
    scores: Object.fromEntries(SCORE_NAMES.map((n) => [n, null])) as Scores,
    reasons: verdict === 'approved' ? [] : ['test_mode_forced'],
    fieldsExtracted: NO_FIELDS,
  };
}
