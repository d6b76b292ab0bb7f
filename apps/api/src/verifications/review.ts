import type { AppDeps } from '../app-deps.js';
import { ApiError } from '../http/api-error.js';
import { QUEUES } from '../queue/job-queue.js';
import { recordEvent } from '../webhooks/outbox.js';

/**
 * A reviewer's decision on a `review` verdict: the verdict becomes the decision, the `review`
 * block is set, and `verification.reviewed` is written in the same transaction.
 */
export async function recordReview(deps: AppDeps, verificationId: string, decision: 'approved' | 'rejected', note: string | null) {
  const out = await deps.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('verifications')
      .select(['id', 'status', 'verdict', 'review_decision'])
      .where('id', '=', verificationId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw new ApiError('verification_not_found', 'Verification not found');
    if (current.status !== 'completed' || current.verdict !== 'review' || current.review_decision !== null) {
      throw new ApiError('not_in_review', 'Only a verification with a `review` verdict awaiting a decision can be reviewed');
    }
    const v = await trx
      .updateTable('verifications')
      .set({ verdict: decision, review_decision: decision, review_note: note, reviewed_at: deps.clock.now() })
      .where('id', '=', verificationId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const { eventId } = await recordEvent(deps, trx, v, 'verification.reviewed', decision);
    return { verificationId: v.id, verdict: decision, review: { decision, decidedAt: v.reviewed_at!.toISOString() }, eventId };
  });
  deps.queue.notify(QUEUES.webhook);
  return out;
}
