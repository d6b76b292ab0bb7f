import path from 'node:path';
import { z } from 'zod';

/** The environment of decisions.md ("Running the service"), plus a few operator knobs. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_BASE_URL: z
    .string()
    .refine((u) => URL.canParse(u) && /^https?:\/\//.test(u), 'must be an absolute http(s) URL')
    .optional(),
  DATABASE_URL: z
    .string()
    .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// connection string')
    .optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CLIENT_IP_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name such as cf-connecting-ip')
    .optional(),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.enum(['true', 'false']).default('false'),
  /** `all` (API + workers, the only choice on the embedded database), `api` or `worker`. */
  PROCESS_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Size of the PostgreSQL connection pool of one process. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** A start waits this long for the database (retrying with backoff) before it gives up. */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Opening a connection or waiting for a free one longer than this answers 503. */
  DATABASE_ACQUIRE_TIMEOUT_SECONDS: z.coerce.number().min(0.5).max(300).default(3),
  /** A statement running longer than this is cancelled (503); a paused server is given one second more. */
  DATABASE_STATEMENT_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(5),
  /**
   * A verification job running longer than this is presumed lost (its process died) and retried;
   * a pipeline run is stopped 5 s before it (and judged unreadable), so two never overlap.
   */
  VERIFICATION_JOB_TIMEOUT_SECONDS: z.coerce.number().int().min(2).max(3600).default(45),
  /** CPU seconds one pipeline run may spend (all its threads) before it is stopped and judged unreadable. */
  PIPELINE_CPU_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Resident memory of one pipeline process, models included; a run over it is stopped and judged unreadable. */
  PIPELINE_MEMORY_MB: z.coerce.number().int().min(256).max(65536).default(1024),
  /**
   * Pipeline child processes of a worker process, i.e. verifications judged at once. Unset: one per
   * core, at least 2. More share the cores among more jobs: under a burst the quick ones finish
   * sooner, at about 400 MB of memory per child once warm (docs/configuration.md).
   */
  PIPELINE_CHILDREN: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * Pipeline children kept warm once the worker has had no verification for PIPELINE_REST_SECONDS
   * (the others are stopped; a kept child that grew is replaced by a fresh one). The first
   * verification after rest starts the rest again. PIPELINE_CHILDREN (or more) keeps them all.
   */
  PIPELINE_CHILDREN_AT_REST: z.coerce.number().int().min(1).max(64).default(1),
  PIPELINE_REST_SECONDS: z.coerce.number().int().min(1).max(86_400).default(15),
  /**
   * The key that wraps every verification's image data key: 32 bytes, base64. Unset, a single
   * process keeps a generated one under DATA_DIR; split processes must share one, so they need it.
   */
  BLOB_ENCRYPTION_KEY: z
    .string()
    .refine(
      (k) => /^[A-Za-z0-9+/]+={0,2}$/.test(k) && Buffer.from(k, 'base64').length === 32,
      'must be 32 bytes, base64 (openssl rand -base64 32)',
    )
    .optional(),
  /**
   * Earlier master keys, comma-separated, during a rotation: data keys they wrapped still open,
   * and `npm run admin -- blob-keys rewrap` re-wraps them under BLOB_ENCRYPTION_KEY.
   */
  BLOB_ENCRYPTION_KEY_PREVIOUS: z
    .string()
    .refine(
      (list) => list.split(',').every((k) => /^[A-Za-z0-9+/]+={0,2}$/.test(k.trim()) && Buffer.from(k.trim(), 'base64').length === 32),
      'must be 32-byte base64 keys, comma-separated',
    )
    .optional(),
  /** Images are deleted this many days after the final decision (verdict, or a reviewer's for `review`). */
  IMAGE_RETENTION_DAYS: z.coerce.number().min(0).max(3650).default(7),
  /** The typed name and extracted fields are erased this many days after the final decision. */
  DATA_RETENTION_DAYS: z.coerce.number().min(0).max(36500).default(90),
  /**
   * A port of its own serving GET /metrics without a token (on HOST), for every role: a worker has
   * no other HTTP port. Unset: API processes serve /metrics behind the admin token only.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Where images live: `fs` (under DATA_DIR) or `s3` (one bucket shared by every process). */
  BLOB_STORE: z.enum(['fs', 's3']).default('fs'),
  /** An S3-compatible server's URL (radosgw, MinIO, R2...); unset for AWS S3 itself. */
  S3_ENDPOINT: z
    .string()
    .refine((u) => URL.canParse(u) && /^https?:\/\//.test(u), 'must be an absolute http(s) URL')
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** The demo tenant and page of a development start; default on with the embedded database only. */
  DEMO: z.enum(['true', 'false']).optional(),
  /**
   * Which Tesseract build reads pages, and where the face models run (docs/configuration.md). The
   * pipeline children read them from the environment they inherit; checked here so that a bad
   * value stops the start with its name, not the first verification.
   */
  OCR_ENGINE: z.enum(['auto', 'native', 'wasm']).optional(),
  FACE_RUNTIME: z.enum(['auto', 'native', 'wasm']).optional(),
});

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  adminToken: string | undefined;
  clientIpHeader: string | undefined;
  webhookAllowPrivateNetworks: boolean;
  processRole: 'all' | 'api' | 'worker';
  logLevel: string;
  databasePoolSize: number;
  databaseConnectTimeoutSeconds: number;
  databaseAcquireTimeoutSeconds: number;
  databaseStatementTimeoutSeconds: number;
  verificationJobTimeoutSeconds: number;
  pipelineCpuSeconds: number;
  pipelineMemoryMb: number;
  /** Unset: one per core, at least 2. */
  pipelineChildren: number | undefined;
  pipelineChildrenAtRest: number;
  pipelineRestSeconds: number;
  /** 32 bytes, or undefined: a single process then uses the one kept under `dataDir`. */
  blobEncryptionKey: Buffer | undefined;
  /** Earlier master keys whose wrapped data keys still open (a rotation in progress). */
  blobEncryptionKeysPrevious: Buffer[];
  demo: boolean;
  imageRetentionDays: number;
  metricsPort: number | undefined;
  dataRetentionDays: number;
  blobStore:
    | { kind: 'fs' }
    | {
        kind: 's3';
        endpoint: string | undefined;
        bucket: string;
        region: string;
        /** Unset: the AWS SDK's default chain (instance roles, profiles). */
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      };
}

export class ConfigError extends Error {}

/** Reads and validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankToUndefined = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
  const parsed = envSchema.safeParse(blankToUndefined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.DATABASE_URL && e.PROCESS_ROLE !== 'all') {
    throw new ConfigError(
      'Invalid configuration:\n  PROCESS_ROLE: the embedded database serves one process; set DATABASE_URL to split API and workers',
    );
  }
  if (!e.BLOB_ENCRYPTION_KEY && e.PROCESS_ROLE !== 'all') {
    throw new ConfigError(
      'Invalid configuration:\n  BLOB_ENCRYPTION_KEY: split processes (PROCESS_ROLE api or worker) must share one key (openssl rand -base64 32)',
    );
  }
  if (e.BLOB_STORE === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: BLOB_STORE=s3 needs the bucket the images go to');
  }
  const urlHost = e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${urlHost}:${e.PORT}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    adminToken: e.ADMIN_TOKEN,
    clientIpHeader: e.CLIENT_IP_HEADER?.toLowerCase(),
    webhookAllowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
    processRole: e.PROCESS_ROLE,
    logLevel: e.LOG_LEVEL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseConnectTimeoutSeconds: e.DATABASE_CONNECT_TIMEOUT_SECONDS,
    databaseAcquireTimeoutSeconds: e.DATABASE_ACQUIRE_TIMEOUT_SECONDS,
    databaseStatementTimeoutSeconds: e.DATABASE_STATEMENT_TIMEOUT_SECONDS,
    verificationJobTimeoutSeconds: e.VERIFICATION_JOB_TIMEOUT_SECONDS,
    pipelineCpuSeconds: e.PIPELINE_CPU_SECONDS,
    pipelineMemoryMb: e.PIPELINE_MEMORY_MB,
    pipelineChildren: e.PIPELINE_CHILDREN,
    pipelineChildrenAtRest: e.PIPELINE_CHILDREN_AT_REST,
    pipelineRestSeconds: e.PIPELINE_REST_SECONDS,
    blobEncryptionKey: e.BLOB_ENCRYPTION_KEY ? Buffer.from(e.BLOB_ENCRYPTION_KEY, 'base64') : undefined,
    blobEncryptionKeysPrevious: (e.BLOB_ENCRYPTION_KEY_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => Buffer.from(k, 'base64')),
    demo: e.DEMO ? e.DEMO === 'true' : !e.DATABASE_URL,
    imageRetentionDays: e.IMAGE_RETENTION_DAYS,
    metricsPort: e.METRICS_PORT,
    dataRetentionDays: e.DATA_RETENTION_DAYS,
    blobStore:
      e.BLOB_STORE === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            credentials:
              e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
                ? { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY }
                : undefined,
          }
        : { kind: 'fs' },
  };
}
