import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type Router from '@koa/router';
import { createApp } from './app.js';
import type { AppDeps } from './app-deps.js';
import type { Config } from './config/config.js';
import { databaseClock, type Clock } from './db/clock.js';
import { connectEmbedded, connectPostgres, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { preparedRunner } from './db/prepared.js';
import { processVerificationJob } from './jobs/process-verification.js';
import { createLogger, type Logger } from './http/logger.js';
import type { VerificationPipeline } from './pipeline/pipeline.js';
import { backgroundVisionPipeline } from './pipeline/vision-pipeline.js';
import { DEFAULT_QUEUE_TUNING, JobQueue, QUEUES, type QueueTuning } from './queue/job-queue.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import type { BlobStore } from './storage/blob-store.js';
import { FsBlobStore } from './storage/fs-blob-store.js';
import { CONTRACT_DELIVERY_OPTIONS, deliverWebhookJob, type DeliveryOptions } from './webhooks/deliver-job.js';

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
  pipeline?: VerificationPipeline;
  blobs?: BlobStore;
  queueTuning?: Partial<QueueTuning>;
  delivery?: DeliveryOptions;
  /** Concurrent verification jobs in this process (default: one per core, at least 2). */
  verificationConcurrency?: number;
  webhookConcurrency?: number;
  extraRoutes?: ((router: Router) => void)[];
}

export interface RunningService {
  deps: AppDeps;
  database: DatabaseHandle;
  server: http.Server | null;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts what this process's role needs: database (migrated), queue, HTTP API and/or workers.
 * With PORT 0 and no PUBLIC_BASE_URL, the slot URLs use the port actually bound.
 */
export async function startService(config: Config, opts: ServiceOptions = {}): Promise<RunningService> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const database = config.databaseUrl ? await connectPostgres(config.databaseUrl, config.databasePoolSize) : await connectEmbedded(config.dataDir);
  let queue: JobQueue | null = null;
  try {
    await migrateToLatest(database.db);
    const runApi = config.processRole !== 'worker';
    const runWorkers = config.processRole !== 'api';
    queue = await JobQueue.start(
      database.pool,
      { ...DEFAULT_QUEUE_TUNING, verificationExpireSeconds: config.verificationJobTimeoutSeconds, ...opts.queueTuning },
      logger,
      runWorkers,
    );
    const clock = opts.clock ?? databaseClock;
    const run = preparedRunner(database.db, database.kind === 'postgres' ? database.pool : null);
    const deps: AppDeps = {
      config,
      db: database.db,
      clock,
      run,
      limiter: new RateLimiter(database.db, clock, run),
      blobs: opts.blobs ?? new FsBlobStore(path.join(config.dataDir, 'blobs')),
      queue,
      logger,
    };

    const timers: NodeJS.Timeout[] = [];
    let stopPipeline: () => Promise<void> = async () => {};
    if (runWorkers) {
      let pipeline = opts.pipeline;
      if (!pipeline) {
        const vision = backgroundVisionPipeline((err) => logger.error({ err: { message: err.message } }, 'vision models failed to load'));
        stopPipeline = () => vision.stop();
        pipeline = vision;
      }
      const cores = Math.max(2, os.availableParallelism());
      await queue.work(QUEUES.verification, opts.verificationConcurrency ?? cores, processVerificationJob(deps, pipeline));
      await queue.work(QUEUES.webhook, opts.webhookConcurrency ?? 4, deliverWebhookJob(deps, opts.delivery ?? CONTRACT_DELIVERY_OPTIONS));
      const prune = setInterval(() => void deps.limiter.prune().catch((err) => logger.warn({ err: { message: err.message } }, 'rate-limit prune failed')), 60_000);
      prune.unref();
      timers.push(prune);
    }

    let server: http.Server | null = null;
    let url = config.publicBaseUrl;
    if (runApi) {
      const app = createApp(deps, opts.extraRoutes);
      server = http.createServer(app.callback());
      server.keepAliveTimeout = 65_000;
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      url = `http://${host}:${port}`;
      // PORT=0 without PUBLIC_BASE_URL: the default base URL names port 0; use the bound one.
      if (config.publicBaseUrl.endsWith(':0')) config.publicBaseUrl = url;
    }

    const q = queue;
    return {
      deps,
      database,
      server,
      url,
      async stop() {
        for (const t of timers) clearInterval(t);
        if (server) {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server!.close(() => resolve()));
        }
        await q.stop();
        await stopPipeline();
        await database.close();
      },
    };
  } catch (err) {
    if (queue) await queue.stop().catch(() => {});
    await database.close();
    throw err;
  }
}
