import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/http/logger.js';
import { startService, type RunningService } from '../../src/service.js';
import { Api } from '../helpers/api-client.js';
import { ADMIN_TOKEN, BACKEND, createTestDatabase, TEST_BLOB_ENCRYPTION_KEY } from '../helpers/test-service.js';
import { onlyIf } from '../helpers/only-if.js';

/**
 * Several processes started at once on an empty database (a split deployment's first start): the
 * schema migrations and the queue's own schema run once, under a lock, and every process comes up.
 * Before the lock, two of three racing starts failed on PostgreSQL's catalogue ("duplicate key
 * value violates unique constraint pg_namespace_nspname_index").
 */
describe(
  'three processes started at once on an empty database',
  onlyIf(BACKEND === 'postgres', 'PostgreSQL only (PGlite is one process)'),
  () => {
    const started: RunningService[] = [];
    const apis: RunningService[] = [];
    const dirs: string[] = [];
    let drop: (() => Promise<void>) | null = null;
    afterAll(async () => {
      await Promise.allSettled(started.map((s) => s.stop()));
      await drop?.();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    });

    it('all start: migrations and the queue schema are set up once, whatever starts first', async () => {
      const database = await createTestDatabase();
      drop = () => database.drop();
      const roles = ['api', 'api', 'worker'] as const;
      const results = await Promise.allSettled(
        roles.map((role) => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-race-'));
          dirs.push(dir);
          const config = loadConfig({
            PORT: '0',
            HOST: '127.0.0.1',
            DATA_DIR: dir,
            ADMIN_TOKEN,
            LOG_LEVEL: 'silent',
            DATABASE_URL: database.url,
            PROCESS_ROLE: role,
            BLOB_ENCRYPTION_KEY: TEST_BLOB_ENCRYPTION_KEY,
          });
          return startService(config, { logger: createLogger('silent') });
        }),
      );
      results.forEach((r, i) => {
        if (r.status === 'fulfilled') started.push(r.value);
        if (r.status === 'fulfilled' && roles[i] === 'api') apis.push(r.value);
      });
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
      expect(failures).toEqual([]);
      // Both API processes answer on the one schema.
      expect(apis).toHaveLength(2);
      for (const s of apis) {
        const api = new Api(s.url);
        expect((await api.tenant(3)).keys.publishableTest).toMatch(/^qv_pubt_/);
      }
    }, 120_000);
  },
);
