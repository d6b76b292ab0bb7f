import { sql } from 'kysely';
import type { AppDeps } from '../app-deps.js';
import { deleteImages, erasePersonalData } from '../verifications/erasure.js';

/** Verifications handled per query, and queries per run (a run stays well inside its job's minute). */
const BATCH = 100;
const MAX_BATCHES = 10;

/**
 * Retention (decisions.md "Storage, retention and erasure"): images deleted IMAGE_RETENTION_DAYS
 * after the final decision (the verdict, or a reviewer's decision for `review`; a review nobody
 * decided keeps its images for the reviewer) and 24 h after an intent expired unsubmitted; the
 * typed name and extracted fields erased DATA_RETENTION_DAYS after the final decision (or the
 * intent's expiry). Idempotent and safe with several workers: each step is conditional on what is
 * still there, so a repeated or concurrent run does nothing twice.
 */
export async function runRetention(
  deps: Pick<AppDeps, 'db' | 'blobs' | 'clock' | 'config'>,
): Promise<{ imagesDeleted: number; dataErased: number }> {
  const now = deps.clock.now();
  const days = (n: number) => sql<Date>`(${now} - make_interval(secs => ${Math.round(n * 86_400)}))`;
  const decidedAt = sql<Date | null>`(case when verdict = 'review' then reviewed_at else completed_at end)`;
  const { imageRetentionDays, dataRetentionDays } = deps.config;

  /**
   * Verifications whose `done` column is still null and that are due: decided `decidedDays` ago,
   * never submitted and expired `expiredDays` ago, or redacted (a redaction cut short by an
   * unreachable store finishes here); each handed to `act`, in batches. Returns how many.
   */
  const forEachDue = async (
    done: 'images_deleted_at' | 'personal_data_erased_at',
    decidedDays: number,
    expiredDays: number,
    act: (v: { id: string; tenant_id: string }) => Promise<void>,
  ) => {
    let count = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const due = await deps.db
        .selectFrom('verifications')
        .select(['id', 'tenant_id'])
        .where(done, 'is', null)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', 'in', ['completed', 'failed']), eb(decidedAt, '<', days(decidedDays))]),
            eb.and([eb('status', 'is', null), eb('intent_expires_at', '<', days(expiredDays))]),
            eb('redacted_at', 'is not', null),
          ]),
        )
        .limit(BATCH)
        .execute();
      for (const v of due) await act(v);
      count += due.length;
      if (due.length < BATCH) break;
    }
    return count;
  };

  const imagesDeleted = await forEachDue('images_deleted_at', imageRetentionDays, 1, (v) => deleteImages(deps, v));
  const dataErased = await forEachDue('personal_data_erased_at', dataRetentionDays, dataRetentionDays, (v) =>
    erasePersonalData(deps, v.id),
  );
  return { imagesDeleted, dataErased };
}
