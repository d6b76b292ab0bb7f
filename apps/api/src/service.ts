import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type Router from '@koa/router';
import type Koa from 'koa';
import { createApp } from './app.js';
import type { AppDeps } from './app-deps.js';
import type { Config } from './config/config.js';
import { databaseClock, type Clock } from './db/clock.js';
import { connectEmbedded, connectPostgres, waitForDatabase, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { withSetupLock } from './db/setup-lock.js';
import { preparedRunner } from './db/prepared.js';
import { housekeepingJob, scheduleHousekeeping } from './jobs/housekeeping.js';
import { processVerificationJob, verificationFailedForGood } from './jobs/process-verification.js';
import { handleClientErrors } from './http/client-error.js';
import { createLogger, type Logger } from './http/logger.js';
import { newRequestId } from './util/ids.js';
import { Throttle } from './util/throttle.js';
import type { VerificationPipeline } from './pipeline/pipeline.js';
import { IsolatedPipeline, type RunBudget } from './pipeline-runner/isolated-pipeline.js';
import { TenantGate } from './pipeline-runner/tenant-gate.js';
import { DEFAULT_QUEUE_TUNING, JobQueue, QUEUES, type QueueTuning } from './queue/job-queue.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import type { BlobStore } from './storage/blob-store.js';
import { DataKeys } from './storage/data-keys.js';
import { EncryptedBlobStore } from './storage/encrypted-blob-store.js';
import { FsBlobStore } from './storage/fs-blob-store.js';
import { S3BlobStore } from './storage/s3-blob-store.js';
import { Metrics } from './metrics/metrics.js';
import { timedBlobStore } from './metrics/timed-blob-store.js';
import { resolveMasterKey } from './storage/master-key.js';
import { CONTRACT_DELIVERY_OPTIONS, deliverWebhookJob, type DeliveryOptions } from './webhooks/deliver-job.js';

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
  pipeline?: VerificationPipeline;
  blobs?: BlobStore;
  queueTuning?: Partial<QueueTuning>;
  delivery?: DeliveryOptions;
  /** Concurrent verification jobs in this process (default: `PIPELINE_CHILDREN`, else one per core, at least 2). */
  verificationConcurrency?: number;
  /** Pipeline runs at once per tenant in this process (default: half the concurrency, at least 1; none with an injected pipeline). */
  tenantConcurrency?: number;
  webhookConcurrency?: number;
  /** Routes added to the app (the demo page), given the shared dependencies. */
  extraRoutes?: ((router: Router, deps: AppDeps) => void)[];
}

export interface RunningService {
  deps: AppDeps;
  database: DatabaseHandle;
  server: http.Server | null;
  url: string;
  /** The isolated pipeline (null with an injected pipeline or without workers). */
  pipeline: IsolatedPipeline | null;
  /** `http://host:port/metrics` with METRICS_PORT, else null. */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

/** A run's budget: its wall clock ends 5 s before the job's expiry, so no retry starts beside it. */
export function pipelineBudget(config: Config): RunBudget {
  return {
    wallMs: Math.max(1, config.verificationJobTimeoutSeconds - 5) * 1000,
    cpuMs: config.pipelineCpuSeconds * 1000,
    memoryBytes: config.pipelineMemoryMb * 1024 * 1024,
  };
}

/** The HTTP server, bound before the app exists so the slot URLs can name the port actually bound. */
interface BoundHttp {
  server: http.Server;
  url: string;
  /** Serves requests with the app from now on (until then: 503, the process is starting). */
  serve(app: Koa): void;
}

/** What the worker role started, and how to stop it. */
interface Workers {
  pipeline: IsolatedPipeline | null;
  stop(): Promise<void>;
}

/**
 * Starts what this process's role needs, in steps: the database (waited for, migrated), the
 * queue, the HTTP port, the dependencies every route and job shares, the workers, then the app.
 */
export async function startService(config: Config, opts: ServiceOptions = {}): Promise<RunningService> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  warnAboutDevelopmentSettings(config, logger);
  const database = await openDatabase(config, logger);
  const runApi = config.processRole !== 'worker';
  const runWorkers = config.processRole !== 'api';
  let queue: JobQueue | null = null;
  let bound: BoundHttp | null = null;
  try {
    queue = await prepareDatabase(database, config, logger, () => startQueue(database, config, opts, logger, runWorkers));
    bound = runApi ? await bindHttp(config, logger) : null;
    const deps = buildDeps(withBoundUrl(config, bound), database, queue, logger, opts);
    const workers = runWorkers ? await startWorkers(deps, opts) : null;
    bound?.serve(createApp(deps, opts.extraRoutes));
    const metricsServer = config.metricsPort !== undefined ? await serveMetrics(deps, config.host, config.metricsPort) : null;

    const q = queue;
    const server = bound?.server ?? null;
    return {
      deps,
      database,
      server,
      url: bound?.url ?? config.publicBaseUrl,
      pipeline: workers?.pipeline ?? null,
      metricsUrl: metricsServer ? `http://${urlHostOf(config.host)}:${(metricsServer.address() as AddressInfo).port}/metrics` : null,
      async stop() {
        if (metricsServer) await closeHttp(metricsServer);
        if (server) await closeHttp(server);
        // Workers first: runs in flight end (their jobs go back to the queue) while the queue can
        // still record it.
        await workers?.stop();
        await q.stop();
        await database.close();
      },
    };
  } catch (err) {
    if (bound) await closeHttp(bound.server).catch(() => {});
    if (queue) await queue.stop().catch(() => {});
    await database.close();
    throw err;
  }
}

function warnAboutDevelopmentSettings(config: Config, logger: Logger): void {
  if (config.webhookAllowPrivateNetworks) {
    logger.warn(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: webhooks may reach loopback and private addresses (http:// to loopback too); development and tests only',
    );
  }
}

/** PostgreSQL (DATABASE_URL) or the embedded database in DATA_DIR. */
async function openDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  if (!config.databaseUrl) return connectEmbedded(config.dataDir);
  // A connection that breaks (server restart, network) is logged, at most every 5 s, and replaced.
  const brokenConnections = new Throttle(5_000);
  return connectPostgres(
    config.databaseUrl,
    config.databasePoolSize,
    { acquireSeconds: config.databaseAcquireTimeoutSeconds, statementSeconds: config.databaseStatementTimeoutSeconds },
    (err) => brokenConnections.run((suppressed) => logger.warn({ err: { message: err.message }, suppressed }, 'database connection lost')),
  );
}

/**
 * Waits for PostgreSQL to answer (a patient start), then migrates and starts the queue (which sets
 * up its own schema), under one lock on PostgreSQL: processes started at once set up in turn.
 */
async function prepareDatabase(
  database: DatabaseHandle,
  config: Config,
  logger: Logger,
  startQueue: () => Promise<JobQueue>,
): Promise<JobQueue> {
  if (config.databaseUrl) {
    await waitForDatabase(database.pool, config.databaseUrl, {
      timeoutSeconds: config.databaseConnectTimeoutSeconds,
      log: (fields, message) => logger.warn(fields, message),
    });
  }
  const setup = async () => {
    await migrateToLatest(database.db);
    return startQueue();
  };
  // The embedded database belongs to one process (embedded-lock.ts): nothing to race with.
  return database.kind === 'postgres' ? withSetupLock(database.pool, setup) : setup();
}

function startQueue(database: DatabaseHandle, config: Config, opts: ServiceOptions, logger: Logger, supervise: boolean): Promise<JobQueue> {
  const tuning = { ...DEFAULT_QUEUE_TUNING, verificationExpireSeconds: config.verificationJobTimeoutSeconds, ...opts.queueTuning };
  return JobQueue.start(database.pool, tuning, logger, supervise);
}

async function bindHttp(config: Config, logger: Logger): Promise<BoundHttp> {
  let handler: http.RequestListener = (_req, res) => {
    const requestId = newRequestId();
    res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1', 'X-Request-Id': requestId });
    res.end(JSON.stringify({ error: 'backend_unavailable', message: 'The service is starting', requestId, detail: { retry_after: 1 } }));
  };
  const server = http.createServer((req, res) => handler(req, res));
  server.keepAliveTimeout = 65_000;
  handleClientErrors(server, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    server,
    url: `http://${host}:${port}`,
    serve(app) {
      const callback = app.callback(); // Koa handles its own errors: the promise never rejects
      handler = (req, res) => void callback(req, res);
    },
  };
}

/** PORT=0 without PUBLIC_BASE_URL: the default base URL names port 0; the bound one is meant. */
function withBoundUrl(config: Config, bound: BoundHttp | null): Config {
  return bound && config.publicBaseUrl.endsWith(':0') ? { ...config, publicBaseUrl: bound.url } : config;
}

function buildDeps(config: Config, database: DatabaseHandle, queue: JobQueue, logger: Logger, opts: ServiceOptions): AppDeps {
  const clock = opts.clock ?? databaseClock;
  const run = preparedRunner(database.db, database.kind === 'postgres' ? database.pool : null);
  const dataKeys = new DataKeys(database.db, resolveMasterKey(config, logger), config.blobEncryptionKeysPrevious);
  const metrics = new Metrics(() => queueDepths(queue));
  queue.onJobDone = (name, ok, seconds) => metrics.job(name, ok, seconds);
  return {
    metrics,
    config,
    db: database.db,
    clock,
    run,
    limiter: new RateLimiter(database.db, clock, run),
    // Every image sealed under its verification's key before any store sees it (encrypted-blob-store.ts).
    blobs: new EncryptedBlobStore(timedBlobStore(opts.blobs ?? rawBlobStore(config), metrics), dataKeys),
    dataKeys,
    queue,
    logger,
  };
}

/** METRICS_PORT: GET /metrics and nothing else, on a port the operator keeps inside its network. */
async function serveMetrics(deps: AppDeps, host: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    deps.metrics.text().then(
      (text) => res.writeHead(200, { 'Content-Type': deps.metrics.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  deps.logger.info({ port: (server.address() as AddressInfo).port }, 'metrics served on their own port');
  return server;
}

const urlHostOf = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** Jobs waiting (created or retrying) in each queue, for the metrics. */
async function queueDepths(queue: JobQueue): Promise<Record<string, number>> {
  const names = Object.values(QUEUES);
  const sizes = await Promise.all(names.map((n) => queue.boss.getQueueSize(n)));
  return Object.fromEntries(names.map((n, i) => [n, sizes[i]!]));
}

/** The store the sealed images go to (decisions.md "Storage, retention and erasure"). */
function rawBlobStore(config: Config): BlobStore {
  const b = config.blobStore;
  return b.kind === 's3'
    ? new S3BlobStore({ endpoint: b.endpoint, bucket: b.bucket, region: b.region, credentials: b.credentials })
    : new FsBlobStore(path.join(config.dataDir, 'blobs'));
}

/** The verification, dead-letter, webhook and housekeeping workers, and the isolated pipeline. */
async function startWorkers(deps: AppDeps, opts: ServiceOptions): Promise<Workers> {
  const { config, queue, logger } = deps;
  // One child per core by default: the memory the service was sized for (docs/configuration.md).
  const concurrency = opts.verificationConcurrency ?? config.pipelineChildren ?? Math.max(2, os.availableParallelism());
  let isolated: IsolatedPipeline | null = null;
  let pipeline = opts.pipeline;
  if (!pipeline) {
    // Child processes with a per-run budget; the run ends before the queue's expiry would start another.
    isolated = new IsolatedPipeline({
      size: concurrency,
      budget: pipelineBudget(config),
      rest: { afterMs: config.pipelineRestSeconds * 1000, children: config.pipelineChildrenAtRest },
      logger,
    });
    pipeline = isolated;
  }
  const perTenant = opts.tenantConcurrency ?? (opts.pipeline ? undefined : Math.max(1, Math.floor(concurrency / 2)));
  await queue.work(
    QUEUES.verification,
    concurrency,
    processVerificationJob(deps, pipeline, {
      gate: perTenant ? new TenantGate(perTenant) : undefined,
      jobSeconds: opts.queueTuning?.verificationExpireSeconds ?? config.verificationJobTimeoutSeconds,
    }),
  );
  await queue.work(QUEUES.verificationFailed, 1, verificationFailedForGood(deps));
  await queue.work(QUEUES.webhook, opts.webhookConcurrency ?? 4, deliverWebhookJob(deps, opts.delivery ?? CONTRACT_DELIVERY_OPTIONS));
  await queue.work(QUEUES.housekeeping, 1, housekeepingJob(deps));
  const stopHousekeeping = scheduleHousekeeping(deps, queue);
  return {
    pipeline: isolated,
    async stop() {
      stopHousekeeping();
      await isolated?.stop();
    },
  };
}

async function closeHttp(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
