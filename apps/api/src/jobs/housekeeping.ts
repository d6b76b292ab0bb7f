import type { AppDeps } from '../app-deps.js';
import type { JobHandler, JobQueue } from '../queue/job-queue.js';
import { QUEUES, type HousekeepingJob } from '../queue/queues.js';
import { runRetention } from './retention.js';

/** How often each task is due. */
export const HOUSEKEEPING_PERIOD_SECONDS = 60;
const TASKS: HousekeepingJob['task'][] = ['prune-rate-limits', 'retention'];

/** Runs one housekeeping task; each is idempotent, so a retried or repeated job does no harm. */
export function housekeepingJob(
  deps: Pick<AppDeps, 'limiter' | 'db' | 'blobs' | 'clock' | 'config' | 'logger'>,
): JobHandler<HousekeepingJob> {
  return async ({ task }) => {
    switch (task) {
      case 'prune-rate-limits':
        await deps.limiter.prune();
        return;
      case 'retention': {
        const done = await runRetention(deps);
        if (done.imagesDeleted || done.dataErased) deps.logger.info(done, 'retention: images deleted and personal data erased when due');
        return;
      }
    }
  };
}

/**
 * Every worker process asks for each task once a period; the singleton key lets one job per task
 * and period through, whichever process asks first, so N workers do the work once.
 */
export function scheduleHousekeeping(deps: Pick<AppDeps, 'db' | 'logger'>, queue: JobQueue): () => void {
  const request = () => {
    for (const task of TASKS) {
      queue
        .sendInTransaction(deps.db, QUEUES.housekeeping, { task }, { singletonKey: task, singletonSeconds: HOUSEKEEPING_PERIOD_SECONDS })
        .catch((err: Error) => deps.logger.warn({ err: { message: err.message }, task }, 'housekeeping not scheduled'));
    }
  };
  request();
  const timer = setInterval(request, HOUSEKEEPING_PERIOD_SECONDS * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
