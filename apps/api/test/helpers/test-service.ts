import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.js';
import { OffsetClock } from '../../src/db/clock.js';
import { createLogger } from '../../src/http/logger.js';
import { PermanentPipelineError, type VerificationPipeline } from '../../src/pipeline/pipeline.js';
import { startService, type RunningService, type ServiceOptions } from '../../src/service.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const CLIENT_IP_HEADER = 'x-test-client-ip';
/** The image master key of split processes in tests (they must share one: config.ts). */
export const TEST_BLOB_ENCRYPTION_KEY = Buffer.alloc(32, 11).toString('base64');

/** Base PostgreSQL of the machine; each test file gets a database of its own on it. */
export const PG_BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** `embedded` runs the same API tests on PGlite instead of PostgreSQL. */
export const BACKEND = process.env.TEST_BACKEND === 'embedded' ? 'embedded' : 'postgres';

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_BASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_BASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_BASE_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestService extends RunningService {
  clock: OffsetClock;
  dataDir: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A whole service on a random port with an adjustable clock, on PostgreSQL or PGlite. */
export async function startTestService(env: Record<string, string> = {}, opts: ServiceOptions = {}): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  const database = BACKEND === 'postgres' ? await createTestDatabase() : null;
  const fullEnv: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    CLIENT_IP_HEADER,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  };
  const config = loadConfig(fullEnv);
  const clock = new OffsetClock();
  const service = await startService(config, {
    clock,
    logger: createLogger('silent'),
    queueTuning: { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 },
    ...opts,
  });
  return {
    ...service,
    clock,
    dataDir,
    env: fullEnv,
    async close() {
      await service.stop();
      await new Promise((r) => setTimeout(r, 100));
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A pipeline that fails every run for good: for suites whose verifications are test-mode (their
 * typed names force the verdict), so no vision model is loaded and a live one ends `failed`.
 */
export const FAILING_PIPELINE: VerificationPipeline = {
  run: async () => {
    throw new PermanentPipelineError('pipeline_error', 'the pipeline failed');
  },
};
