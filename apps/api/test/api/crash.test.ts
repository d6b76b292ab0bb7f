import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/api-client.js';
import { killHard, runToExit, spawnService, type SpawnedService } from '../helpers/spawn-service.js';
import { ADMIN_TOKEN, BACKEND, CLIENT_IP_HEADER, createTestDatabase } from '../helpers/test-service.js';

let dataDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
let running: SpawnedService | null = null;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-crash-'));
  if (BACKEND === 'postgres') database = await createTestDatabase();
});
afterAll(async () => {
  if (running) await killHard(running);
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const baseEnv = () => ({ DATA_DIR: dataDir, ADMIN_TOKEN, CLIENT_IP_HEADER, VERIFICATION_JOB_TIMEOUT_SECONDS: '10', ...(database ? { DATABASE_URL: database.url } : {}) });

describe('an accepted submit survives kill -9', () => {
  it('the job completes after restart and nothing is charged twice', async () => {
    // On PostgreSQL the first process runs the API only, so the job cannot have run before the
    // kill; the embedded database allows one process, so there the kill races the worker.
    running = await spawnService({ ...baseEnv(), ...(database ? { PROCESS_ROLE: 'api' } : {}) });
    let api = new Api(running.url);
    const tenant = await api.tenant(10);
    const live = await api.prepared(tenant.keys.publishable, { submittedFullName: 'Test Approve' });
    const test = await api.prepared(tenant.keys.publishableTest, { submittedFullName: 'Test Approve' });
    expect((await api.submit(tenant.keys.secret, live)).status).toBe(202);
    expect((await api.submit(tenant.keys.secretTest, test)).status).toBe(202);
    await killHard(running);

    running = await spawnService(baseEnv());
    api = new Api(running.url);
    const testDone = await api.waitForStatus(tenant.keys.secretTest, test.verificationId, ['completed', 'failed'], 20_000);
    expect(testDone.body).toMatchObject({ status: 'completed', verdict: 'approved' });
    const liveDone = await api.waitForStatus(tenant.keys.secret, live.verificationId, ['completed', 'failed'], 60_000);
    // Live mode runs the vision pipeline: these random bytes are no readable document.
    expect(liveDone.body).toMatchObject({ status: 'completed', verdict: 'rejected', reasons: ['document_unreadable'] });
    // A repeat after the restart is idempotent and takes nothing.
    expect((await api.submit(tenant.keys.secret, live)).status).toBe(202);
    const t = await api.admin('GET', `/admin/v1/tenants/${tenant.tenantId}`);
    expect(t.body.credits).toBe(9);
    await killHard(running);
    running = null;
  }, 150_000);
});

describe.runIf(BACKEND === 'embedded')('embedded database lock', () => {
  it('a second process on the same DATA_DIR fails with a clear error', async () => {
    if (running) await killHard(running);
    running = await spawnService(baseEnv());
    const second = await runToExit(baseEnv());
    expect(second.code).toBe(1);
    expect(second.output).toMatch(/in use by process \d+/);
    await killHard(running);
    running = null;
  }, 60_000);
});

describe('configuration', () => {
  it('refuses a bad environment with a message naming each variable', async () => {
    const r = await runToExit({ DATA_DIR: dataDir, PORT: 'eighty', DATABASE_URL: 'mysql://x', PUBLIC_BASE_URL: 'not a url' });
    expect(r.code).toBe(1);
    expect(r.output).toContain('PORT');
    expect(r.output).toContain('DATABASE_URL');
    expect(r.output).toContain('PUBLIC_BASE_URL');
  });
});
