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
  verificationExpireSeconds: 120,
  webhookExpireSeconds: 30,
  maintenanceIntervalSeconds: 15,
  pollingIntervalSeconds: 0.5,
};

/** pg-boss talks to the database through our pool: one driver, one serialisation point on PGlite. */
function poolAdapter(pool: pg.Pool): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const client = await pool.connect();
      try {
        return await client.query(text, values);
      } finally {
        client.release();
      }
    },
  };
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

  private constructor(
    readonly boss: PgBoss,
    private readonly tuning: QueueTuning,
    private readonly logger: Logger,
  ) {}

  static async start(pool: pg.Pool, tuning: QueueTuning, logger: Logger, supervise: boolean): Promise<JobQueue> {
    const boss = new PgBoss({
      db: poolAdapter(pool),
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
    return new JobQueue(boss, tuning, logger);
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

  /** Starts `concurrency` workers, each taking one job at a time. */
  async work<T extends object>(queue: QueueName, concurrency: number, handler: JobHandler<T>): Promise<void> {
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      const id = await this.boss.work<T>(
        queue,
        { batchSize: 1, pollingIntervalSeconds: this.tuning.pollingIntervalSeconds, includeMetadata: true } as PgBoss.WorkOptions,
        async ([job]) => {
          if (!job) return;
          try {
            const meta = job as unknown as { retryCount?: number; retryLimit?: number };
            await handler(job.data, { id: job.id, retryCount: meta.retryCount ?? 0, retryLimit: meta.retryLimit ?? 0 });
          } catch (err) {
            this.logger.warn({ queue, jobId: job.id, err: { message: (err as Error).message } }, 'job failed');
            throw err;
          }
        },
      );
      ids.push(id);
    }
    this.workerIds.set(queue, [...(this.workerIds.get(queue) ?? []), ...ids]);
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, close: false, wait: true, timeout: 5_000 });
  }
}
