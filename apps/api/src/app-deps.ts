import type { Kysely } from 'kysely';
import type { Config } from './config/config.js';
import type { Clock } from './db/clock.js';
import type { RunStatement } from './db/prepared.js';
import type { Database } from './db/types.js';
import type { Logger } from './http/logger.js';
import type { JobQueue } from './queue/job-queue.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';
import type { Metrics } from './metrics/metrics.js';
import type { BlobStore } from './storage/blob-store.js';
import type { DataKeys } from './storage/data-keys.js';

/** What routes and jobs need; built once by the service and passed down (no globals). */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  limiter: RateLimiter;
  blobs: BlobStore;
  /** The images' data keys (the encrypting store's), for key rotation. */
  dataKeys: DataKeys;
  queue: JobQueue;
  logger: Logger;
  /** Prometheus metrics of this process (`GET /metrics`). */
  metrics: Metrics;
  /** Runs a hot-path statement (prepared on PostgreSQL). */
  run: RunStatement;
}
