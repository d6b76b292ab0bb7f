import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit } from '../helpers/spawn-service.js';
import { ADMIN_TOKEN, BACKEND, createTestDatabase, TEST_BLOB_ENCRYPTION_KEY } from '../helpers/test-service.js';
import { onlyIf } from '../helpers/only-if.js';

let dir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;

/**
 * Loaded before the service (NODE_OPTIONS=--import): once it listens, a database error nobody
 * handles, then a bug nobody handles, both outside any request.
 */
const PRELOAD = `
const write = process.stdout.write.bind(process.stdout);
let fired = false;
process.stdout.write = (chunk, ...rest) => {
  const r = write(chunk, ...rest);
  if (!fired && String(chunk).includes('listening on')) {
    fired = true;
    setTimeout(() => {
      void Promise.reject(Object.assign(new Error('Connection terminated unexpectedly')));
      setTimeout(() => { throw new Error('the-real-cause-7f3a'); }, 300);
    }, 100);
  }
  return r;
};
`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-fatal-'));
  fs.writeFileSync(path.join(dir, 'preload.mjs'), PRELOAD);
  if (BACKEND === 'postgres') database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

// The API role: a worker loads the tfjs wasm backend, whose own handlers rethrow (exit 7) until
// the pipeline runs in a process of its own; the embedded database allows no split.
describe('an error nobody handled', onlyIf(BACKEND === 'postgres', 'PostgreSQL only (a connection to break)'), () => {
  it('a lost database connection is survived; a bug exits 1 with its cause logged and flushed', async () => {
    const r = await runToExit({
      DATA_DIR: path.join(dir, 'data'),
      ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      NODE_OPTIONS: `--import=${pathToFileURL(path.join(dir, 'preload.mjs')).href}`,
      ...(database ? { DATABASE_URL: database.url, PROCESS_ROLE: 'api', BLOB_ENCRYPTION_KEY: TEST_BLOB_ENCRYPTION_KEY } : {}),
    });
    expect(r.code).toBe(1);
    const lines = r.output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.msg === 'database error outside a request; continuing')).toBeTruthy();
    const fatal = lines.find((l) => l.msg === 'unexpected error; exiting');
    expect(fatal).toMatchObject({ level: 60, kind: 'uncaughtException', err: { message: 'the-real-cause-7f3a' } });
    expect(fatal.err.stack).toContain('preload.mjs');
  }, 60_000);
});
