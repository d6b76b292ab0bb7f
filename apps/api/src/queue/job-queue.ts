import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Database } from '../db/types.js';
import type { Logger } from '../http/logger.js';

export const QUEUES = {
  /** One job per submitted verification: runs the pipeline (or a test-mode verdict). */
  verification: 'verification-process',
  /** One job per webhook delivery attempt. */
  webhook: 'webhook-deliver',
  /** Periodic housekeeping (old rate-limit buckets). */
  housekeeping: 'housekeeping',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

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
  constructor(private readonly pool: pg.Pool) {}
  async executeSql(text: string, values: unknown[]) {
    if (this.closed) return { rows: [] };
    this.active++;
    try {
      const client = await this.pool.connect();
      try {
        return await client.query(text, values);
      } finally {
        client.release();
      }
    } finally {
      this.active--;
    }
  }
}

/** pg-boss inside one of our own transactions: a job commits or rolls back with the change. */
function transactionAdapter(trx: Transaction<Database> | Kysely<Database>): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const res = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: res.rows as any[] };
    },
  };
}

export interface JobInfo {
  id: string;
  retryCount: number;
  retryLimit: number;
}
export type JobHandler<T> = (data: T, job: JobInfo) => Promise<void>;

/** The job queue: pg-boss on PostgreSQL or PGlite. */
export class JobQueue {
  private readonly workerIds = new Map<string, string[]>();
  private readonly inFlight = new Set<Promise<unknown>>();

  private constructor(
    readonly boss: PgBoss,
    private readonly adapter: PoolAdapter,
    private readonly tuning: QueueTuning,
    private readonly logger: Logger,
  ) {}

  static async start(pool: pg.Pool, tuning: QueueTuning, logger: Logger, supervise: boolean): Promise<JobQueue> {
    const adapter = new PoolAdapter(pool);
    const boss = new PgBoss({
      db: adapter,
      supervise,
      schedule: false,
      maintenanceIntervalSeconds: tuning.maintenanceIntervalSeconds,
    } as PgBoss.ConstructorOptions);
    boss.on('error', (err: Error) => logger.error({ err: { message: err.message } }, 'queue error'));
    await boss.start();
    await JobQueue.ensureQueue(boss, QUEUES.verification, {
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
  async sendInTransaction(
    trx: Transaction<Database> | Kysely<Database>,
    queue: QueueName,
    data: object,
    options: { singletonKey?: string; startAfterSeconds?: number } = {},
  ): Promise<string | null> {
    return this.boss.send(queue, data, {
      db: transactionAdapter(trx),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    } as PgBoss.SendOptions);
  }

  /** Wakes this process's workers of a queue at once instead of at their next poll. */
  notify(queue: QueueName): void {
    const boss = this.boss as unknown as { notifyWorker(id: string): void };
    for (const id of this.workerIds.get(queue) ?? []) boss.notifyWorker(id);
  }

  /**
   * Starts `concurrency` workers, each taking one job at a time. After a job a worker wakes itself
   * to fetch again at once (pg-boss 10 would otherwise wait its polling interval between fetches,
   * capping a worker at 2 jobs/s); only an empty fetch waits.
   */
  async work<T extends object>(queue: QueueName, concurrency: number, handler: JobHandler<T>): Promise<void> {
    const boss = this.boss as unknown as { notifyWorker(id: string): void };
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      let workerId: string | undefined;
      workerId = await this.boss.work<T>(
        queue,
        { batchSize: 1, pollingIntervalSeconds: this.tuning.pollingIntervalSeconds, includeMetadata: true } as PgBoss.WorkOptions,
        async ([job]) => {
          if (!job) return;
          const meta = job as unknown as { retryCount?: number; retryLimit?: number };
          const run = handler(job.data, { id: job.id, retryCount: meta.retryCount ?? 0, retryLimit: meta.retryLimit ?? 0 });
          this.inFlight.add(run);
          try {
            await run;
          } catch (err) {
            this.logger.warn({ queue, jobId: job.id, err: { message: (err as Error).message } }, 'job failed');
            throw err;
          } finally {
            this.inFlight.delete(run);
            if (workerId) boss.notifyWorker(workerId);
          }
        },
      );
      ids.push(workerId);
    }
    this.workerIds.set(queue, [...(this.workerIds.get(queue) ?? []), ...ids]);
  }

  /** Stops fetching, lets running jobs and their completions finish (5 s at most), then detaches. */
  async stop(): Promise<void> {
    for (const queue of this.workerIds.keys()) await this.boss.offWork(queue).catch(() => {});
    const deadline = Date.now() + 5_000;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, 5_000))]);
    while (this.adapter.active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await this.boss.stop({ graceful: false, close: false, wait: false });
    this.adapter.closed = true;
  }
}
