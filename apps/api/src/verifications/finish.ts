import type { FailureCode } from '@service/contract';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { QUEUES } from '../queue/job-queue.js';
import { NO_FIELDS, type VerificationOutcome } from '../pipeline/pipeline.js';
import { EVENT_TYPE_BY_VERDICT, recordEvent } from '../webhooks/outbox.js';

/**
 * processing -> completed with its verdict, and the event, in one transaction. Only a verification
 * still `processing` moves, so a job that runs twice (crash, expiry) reports once.
 */
export async function completeVerification(deps: AppDeps, verificationId: string, outcome: VerificationOutcome): Promise<boolean> {
  const done = await deps.db.transaction().execute(async (trx) => {
    const v = await trx
      .updateTable('verifications')
      .set({
        status: 'completed',
        verdict: outcome.verdict,
        scores: JSON.stringify(outcome.scores),
        reasons: JSON.stringify(outcome.reasons),
        // A verification redacted while it was processed keeps nothing of what was read.
        fields_extracted: sql`case when redacted_at is null then ${JSON.stringify(outcome.fieldsExtracted)}::jsonb else ${JSON.stringify(NO_FIELDS)}::jsonb end`,
        completed_at: deps.clock.now(),
      })
      .where('id', '=', verificationId)
      .where('status', '=', 'processing')
      .returningAll()
      .executeTakeFirst();
    if (!v) return null;
    await recordEvent(deps, trx, v, EVENT_TYPE_BY_VERDICT[outcome.verdict], outcome.verdict);
    return v;
  });
  if (done) {
    deps.metrics.finished(outcome.verdict, done.mode);
    deps.queue.notify(QUEUES.webhook);
  }
  return Boolean(done);
}

/** processing -> failed (the pipeline itself failed after its retries), with `verification.failed`. */
export async function failVerification(deps: AppDeps, verificationId: string, failureCode: FailureCode): Promise<boolean> {
  const done = await deps.db.transaction().execute(async (trx) => {
    const v = await trx
      .updateTable('verifications')
      .set({ status: 'failed', failure_code: failureCode, completed_at: deps.clock.now() })
      .where('id', '=', verificationId)
      .where('status', 'in', ['queued', 'processing'])
      .returningAll()
      .executeTakeFirst();
    if (!v) return null;
    await recordEvent(deps, trx, v, 'verification.failed', null);
    return v;
  });
  if (done) {
    deps.metrics.finished('failed', done.mode);
    deps.queue.notify(QUEUES.webhook);
  }
  return Boolean(done);
}
