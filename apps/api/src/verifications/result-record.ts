import type { ResultRecord } from '@service/contract';
import type { Verification } from '../db/types.js';
import type { ResponseBody } from '../http/route.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The result record of decisions.md. Never `userRef`, never the typed name. A verification not
 * yet submitted reads `queued` with `submittedAt: null` (the pipeline has not started).
 */
export function toResultRecord(v: Verification): ResponseBody<ResultRecord> & { submittedAt: string | null } {
  return {
    verificationId: v.id,
    status: v.status ?? 'queued',
    verdict: v.status === 'completed' ? v.verdict : null,
    mode: v.mode,
    createdAt: v.created_at.toISOString(),
    submittedAt: iso(v.submitted_at),
    completedAt: iso(v.completed_at),
    scores: (v.scores as ResultRecord['scores']) ?? null,
    reasons: v.reasons ?? [],
    review: v.review_decision && v.reviewed_at ? { decision: v.review_decision, decidedAt: v.reviewed_at.toISOString() } : null,
    ...(v.redacted_at ? { redactedAt: v.redacted_at.toISOString() } : {}),
  };
}
