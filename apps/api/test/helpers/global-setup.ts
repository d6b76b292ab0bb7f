import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { makeLocalCa } from '@service/fixtures/local-ca';

/**
 * Runs once before the test processes start: makes a throwaway CA and a server certificate for
 * `localhost`/127.0.0.1, and sets NODE_EXTRA_CA_CERTS so every forked test process trusts it
 * (Node reads that variable only at start-up).
 */
/**
 * The API tests run against real PostgreSQL (TEST_DATABASE_URL, default the local server). A
 * developer machine without one falls back to the embedded database with a notice; CI never does.
 */
async function chooseBackend(): Promise<void> {
  if (process.env.TEST_BACKEND) return;
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    process.env.TEST_BACKEND = 'postgres';
  } catch (err) {
    if (process.env.CI) throw new Error(`CI needs PostgreSQL at ${url}: ${(err as Error).message}`);
    console.warn(`\n  PostgreSQL not reachable at ${url}; running the API tests on the embedded database.\n`);
    process.env.TEST_BACKEND = 'embedded';
  }
}

export default async function setup(): Promise<() => void> {
  await chooseBackend();
  console.log(`  API tests backend: ${process.env.TEST_BACKEND}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-ca-'));
  makeLocalCa(dir, { days: 2, name: 'service test CA' });
  process.env.NODE_EXTRA_CA_CERTS = path.join(dir, 'ca.pem');
  process.env.TEST_TLS_DIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
