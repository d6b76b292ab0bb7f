import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/api-client.js';
import { killHard, runToExit, spawnService, type SpawnedService } from '../helpers/spawn-service.js';
import { ADMIN_TOKEN, BACKEND, CLIENT_IP_HEADER, createTestDatabase, TEST_BLOB_ENCRYPTION_KEY } from '../helpers/test-service.js';
import { onlyIf } from '../helpers/only-if.js';

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

const baseEnv = () => ({
  DATA_DIR: dataDir,
  ADMIN_TOKEN,
  CLIENT_IP_HEADER,
  // Short, so a job whose process was killed is retried soon; long enough for a real run's budget (timeout - 5 s).
  VERIFICATION_JOB_TIMEOUT_SECONDS: '25',
  ...(database ? { DATABASE_URL: database.url, BLOB_ENCRYPTION_KEY: TEST_BLOB_ENCRYPTION_KEY } : {}),
});

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
    // A job that was active at the kill runs again after its expiry (25 s + up to 5 s).
    const testDone = await api.waitForStatus(tenant.keys.secretTest, test.verificationId, ['completed', 'failed'], 60_000);
    expect(testDone.body).toMatchObject({ status: 'completed', verdict: 'approved' });
    const liveDone = await api.waitForStatus(tenant.keys.secret, live.verificationId, ['completed', 'failed'], 60_000);
    // Live mode runs the vision pipeline: these random bytes are no readable document.
    expect(liveDone.body).toMatchObject({
      status: 'completed',
      verdict: 'rejected',
      reasons: expect.arrayContaining(['document_unreadable']),
    });
    // A repeat after the restart is idempotent and takes nothing.
    expect((await api.submit(tenant.keys.secret, live)).status).toBe(202);
    const t = await api.admin('GET', `/admin/v1/tenants/${tenant.tenantId}`);
    expect(t.body.credits).toBe(9);
    await killHard(running);
    running = null;
  }, 150_000);
});

describe('embedded database lock', onlyIf(BACKEND === 'embedded', 'the embedded database only (the TEST_BACKEND=embedded pass)'), () => {
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

describe('a verification job killed mid-run', () => {
  it('is retried after restart: one verdict, one credit, one event', async () => {
    const { buildSmokeSet } = await import('@service/fixtures/smoke-set');
    const { HttpsReceiver } = await import('../helpers/https-receiver.js');
    const genuine = (await buildSmokeSet()).find((c) => c.cls === 'genuine')!;
    const receiver = await new HttpsReceiver().start();
    const env = { ...baseEnv(), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
    try {
      running = await spawnService(env);
      let api = new Api(running.url);
      const tenant = await api.tenant(5);
      await api.admin('PATCH', `/admin/v1/tenants/${tenant.tenantId}`, {
        webhook: { url: receiver.url(), secret: 'crash-test-secret-0123456789' },
      });
      const init = (await api.init(tenant.keys.publishable, { submittedFullName: genuine.typedName })).body;
      expect((await api.upload(init, 'docFront', genuine.docFront)).status).toBe(200);
      expect((await api.upload(init, 'selfie', genuine.selfie)).status).toBe(200);
      expect((await api.submit(tenant.keys.secret, init)).status).toBe(202);
      // The first job also waits for the models to load: a wide window to die in.
      await api.waitForStatus(tenant.keys.secret, init.verificationId, ['processing', 'completed'], 20_000);
      const before = (await api.result(tenant.keys.secret, init.verificationId)).body.status;
      await killHard(running);
      expect(before).toBe('processing');

      running = await spawnService(env);
      api = new Api(running.url);
      // Expiry (25 s from the kill's job start) + maintenance (5 s) + retry delay (2 s) + a cold run
      // whose budget is 20 s, with room for a busy machine.
      const done = await api.waitForStatus(tenant.keys.secret, init.verificationId, ['completed', 'failed'], 90_000);
      expect(done.body).toMatchObject({ status: 'completed', verdict: 'approved' });
      expect((await api.admin('GET', `/admin/v1/tenants/${tenant.tenantId}`)).body.credits).toBe(4);
      await receiver.waitFor(1, 20_000);
      await new Promise((r) => setTimeout(r, 3000));
      const events = receiver.requests.map((r) => JSON.parse(r.body)).filter((e) => e.verificationId === init.verificationId);
      expect(events.map((e) => e.type)).toEqual(['verification.approved']);
      await killHard(running);
      running = null;
    } finally {
      await receiver.stop();
    }
  }, 150_000);
});
