import { createRequire } from 'node:module';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Database } from '../db/types.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { Logger } from '../http/logger.js';
import { Throttle } from '../util/throttle.js';
import { QUEUES, type QueueName, type QueuePayloads } from './queues.js';

// pg-boss 10 completes and fails a job without awaiting it (an unhandled rejection that exits the
// process when the database is away). Its two statements are recognised by their exact text.
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  completeJobs(schema: string): string;
  failJobsById(schema: string): string;
};
const COMPLETION_STATEMENTS = new Set([plans.completeJobs('pgboss'), plans.failJobsById('pgboss')]);
/** How long a job's completion is retried while the database is away; after that the job expires and is retried. */
const COMPLETION_RETRY_SECONDS = 300;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export { QUEUES, type QueueName, type QueuePayloads } from './queues.js';

export interface QueueTuning {
  /** Seconds before an active job whose worker vanished is retried. */
  verificationExpireSeconds: number;
  webhookExpireSeconds: number;
  /** How often pg-boss looks for expired jobs. */
  maintenanceIntervalSeconds: number;
  pollingIntervalSeconds: number;
}

export const DEFAULT_QUEUE_TUNING: QueueTuning = {
  verificationExpireSeconds: 60,
  webhookExpireSeconds: 15,
  maintenanceIntervalSeconds: 5,
  pollingIntervalSeconds: 0.5,
};

/**
 * pg-boss talks to the database through our pool: one driver, one serialisation point on PGlite.
 * It counts statements in flight so shutdown can wait for pg-boss's fire-and-forget completions,
 * and after shutdown answers nothing instead of touching a closed pool.
 */
class PoolAdapter implements PgBoss.Db {
  active = 0;
  closed = false;
  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  private async once(text: string, values: unknown[]) {
    const client = await this.pool.connect();
    try {
      return await client.query(text, values);
    } finally {
      client.release();
    }
  }

  async executeSql(text: string, values: unknown[]) {
    // After shutdown: a straggling complete/fail reads rows[0].count; nothing else runs any more.
    if (this.closed) return { rows: [{ count: '0' }] };
    this.active++;
    try {
      if (!COMPLETION_STATEMENTS.has(text)) return await this.once(text, values);
      return await this.completion(text, values);
    } finally {
      this.active--;
    }
  }

  /**
   * A job's completion or failure, retried while the database is away. It never rejects: on
   * giving up (or at shutdown) the job stays active and pg-boss's expiry retries it later.
   */
  private async completion(text: string, values: unknown[]) {
    const deadline = Date.now() + COMPLETION_RETRY_SECONDS * 1000;
    let delay = 250;
    for (;;) {
      try {
        return await this.once(text, values);
      } catch (err) {
        if (!isDatabaseUnavailable(err) || this.closed || Date.now() > deadline) {
          this.logger.error(
            { err: { message: (err as Error).message } },
            'job completion not recorded; the job will expire and be retried',
          );
          return { rows: [{ count: '0' }] };
        }
        await sleep(delay);
        delay = Math.min(delay * 2, 2000);
      }
    }
  }

  /** True once the database answers a trivial statement. */
  async answers(): Promise<boolean> {
    try {
      await this.once('select 1', []);
      return true;
    } catch {
      return false;
    }
  }
}

/** pg-boss inside one of our own transactions: a job commits or rolls back with the change. */
function transactionAdapter(trx: Transaction<Database> | Kysely<Database>): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const res = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: res.rows as unknown[] };
    },
  };
}

export interface JobInfo {
  id: string;
  retryCount: number;
  retryLimit: number;
}
export type JobHandler<T> = (data: T, job: JobInfo) => Promise<void>;

export interface SendOptions {
  /** With `singletonSeconds`: at most one job of this key per period, whichever process sends it. */
  singletonKey?: string;
  singletonSeconds?: number;
  startAfterSeconds?: number;
}

/** The job queue: pg-boss on PostgreSQL or PGlite. */
export class JobQueue {
  private readonly workerIds = new Map<string, string[]>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopping = false;
  /** Told how long each job took and whether it threw (the service's metrics). */
  onJobDone: ((queue: string, ok: boolean, seconds: number) => void) | null = null;

  private constructor(
    readonly boss: PgBoss,
    private readonly adapter: PoolAdapter,
    private readonly tuning: QueueTuning,
    private readonly logger: Logger,
  ) {}

  static async start(pool: pg.Pool, tuning: QueueTuning, logger: Logger, supervise: boolean): Promise<JobQueue> {
    const adapter = new PoolAdapter(pool, logger);
    const boss = new PgBoss({
      db: adapter,
      supervise,
      schedule: false,
      maintenanceIntervalSeconds: tuning.maintenanceIntervalSeconds,
    } as PgBoss.ConstructorOptions);
    // A worker whose fetch failed logs here and polls again at its next interval: an outage costs
    // a warning every few seconds, never the worker.
    const unavailable = new Throttle(5_000);
    boss.on('error', (err: Error) => {
      if (isDatabaseUnavailable(err)) {
        unavailable.run((suppressed) =>
          logger.warn({ err: { message: err.message }, suppressed }, 'queue cannot reach the database; polling on'),
        );
      } else logger.error({ err: { message: err.message } }, 'queue error');
    });
    await boss.start();
    await JobQueue.ensureQueue(boss, QUEUES.verificationFailed, { expireInSeconds: 60, retryLimit: 5, retryDelay: 5 });
    await JobQueue.ensureQueue(boss, QUEUES.verification, {
      deadLetter: QUEUES.verificationFailed,
      expireInSeconds: tuning.verificationExpireSeconds,
      retryLimit: 3,
      retryDelay: 2,
      retryBackoff: true,
    });
    await JobQueue.ensureQueue(boss, QUEUES.webhook, { expireInSeconds: tuning.webhookExpireSeconds, retryLimit: 5, retryDelay: 1 });
    await JobQueue.ensureQueue(boss, QUEUES.housekeeping, { expireInSeconds: 60, retryLimit: 0 });
    return new JobQueue(boss, adapter, tuning, logger);
  }

  private static async ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, 'name'>): Promise<void> {
    if (await boss.getQueue(name)) await boss.updateQueue(name, options as PgBoss.Queue);
    else await boss.createQueue(name, options as PgBoss.Queue);
  }

  /** Enqueues inside `trx`: the job exists only if the transaction commits. */
  async sendInTransaction<Q extends QueueName>(
    trx: Transaction<Database> | Kysely<Database>,
    queue: Q,
    data: QueuePayloads[Q],
    options: SendOptions = {},
  ): Promise<string | null> {
    return this.boss.send(queue, data, {
      db: transactionAdapter(trx),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.singletonSeconds ? { singletonSeconds: options.singletonSeconds } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    });
  }

  /** Wakes this process's workers of a queue at once instead of at their next poll. */
  notify(queue: QueueName): void {
    for (const id of this.workerIds.get(queue) ?? []) this.boss.notifyWorker(id);
  }

  /**
   * Starts `concurrency` workers, each taking one job at a time. After a job a worker wakes itself
   * to fetch again at once (pg-boss 10 would otherwise wait its polling interval between fetches,
   * capping a worker at 2 jobs/s); only an empty fetch waits.
   */
  async work<Q extends QueueName>(queue: Q, concurrency: number, handler: JobHandler<QueuePayloads[Q]>): Promise<void> {
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      // The handler below reads it; a const would be in its temporal dead zone if a job arrived before work() resolved.
      let workerId: string | undefined;
      // eslint-disable-next-line prefer-const
      workerId = await this.boss.work<QueuePayloads[Q]>(
        queue,
        { batchSize: 1, pollingIntervalSeconds: this.tuning.pollingIntervalSeconds, includeMetadata: true },
        async ([job]) => {
          if (!job) return;
          const info = { id: job.id, retryCount: job.retryCount ?? 0, retryLimit: job.retryLimit ?? 0 };
          const run = this.runThroughOutages(queue, job.id, job.expireInSeconds ?? 60, () => handler(job.data, info));
          this.inFlight.add(run);
          const started = performance.now();
          try {
            await run;
            this.onJobDone?.(queue, true, (performance.now() - started) / 1000);
          } catch (err) {
            this.onJobDone?.(queue, false, (performance.now() - started) / 1000);
            this.logger.warn({ queue, jobId: job.id, err: { message: (err as Error).message } }, 'job failed');
            throw err;
          } finally {
            this.inFlight.delete(run);
            if (workerId) this.boss.notifyWorker(workerId);
          }
        },
      );
      ids.push(workerId);
    }
    this.workerIds.set(queue, [...(this.workerIds.get(queue) ?? []), ...ids]);
  }

  /**
   * Runs a job; when it fails because the database went away, waits for the database and runs it
   * again (handlers are idempotent), within the job's expiry, so an outage does not use up the
   * job's retries. Past the expiry the error goes to pg-boss, which retries the job.
   */
  private async runThroughOutages(queue: string, jobId: string, expireInSeconds: number, run: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + Math.max(1, expireInSeconds - 2) * 1000;
    for (;;) {
      try {
        return await run();
      } catch (err) {
        if (!isDatabaseUnavailable(err) || this.stopping) throw err;
        this.logger.warn(
          { queue, jobId, err: { message: (err as Error).message } },
          'job interrupted by a database outage; waiting to run it again',
        );
        while (!(await this.adapter.answers())) {
          if (Date.now() > deadline || this.stopping) throw err;
          await sleep(1000);
        }
        if (Date.now() > deadline) throw err;
      }
    }
  }

  /** The queue answers: its tables are readable through our pool. */
  async ready(): Promise<boolean> {
    try {
      await this.boss.getQueue(QUEUES.verification);
      return true;
    } catch {
      return false;
    }
  }

  /** Stops fetching, lets running jobs and their completions finish (5 s at most), then detaches. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const queue of this.workerIds.keys()) await this.boss.offWork(queue).catch(() => {});
    const deadline = Date.now() + 5_000;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, 5_000))]);
    while (this.adapter.active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await this.boss.stop({ graceful: false, close: false, wait: false });
    this.adapter.closed = true;
  }
}
