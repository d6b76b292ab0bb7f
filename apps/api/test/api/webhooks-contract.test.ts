import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/api-client.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { killHard, spawnService, type SpawnedService } from '../helpers/spawn-service.js';
import { ADMIN_TOKEN, BACKEND, CLIENT_IP_HEADER, createTestDatabase, startTestService, type TestService } from '../helpers/test-service.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SECRET = 'receiver-secret-0123456789abcdef';
let receiver: HttpsReceiver;
beforeAll(async () => {
  receiver = await new HttpsReceiver().start();
});
afterAll(() => receiver?.stop());

async function setup(svcEnv: Record<string, string>) {
  const svc = await startTestService(svcEnv);
  const api = new Api(svc.url);
  const t = await api.tenant(10);
  return { svc, api, t };
}

describe('the contract schedule and timeout (no test shortcuts)', () => {
  let svc: TestService;
  afterAll(() => svc?.close());

  it('cuts a silent receiver at 10 s, then waits 5 s, then 30 s (next_attempt_at from the shared clock)', async () => {
    const s = await setup({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    svc = s.svc;
    receiver.requests.length = 0;
    receiver.responder = (n) => (n === 0 ? 'hang' : { status: 502 });
    await s.api.admin('PATCH', `/admin/v1/tenants/${s.t.tenantId}`, { webhook: { url: receiver.url(), secret: SECRET } });
    const init = await s.api.prepared(s.t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    await s.api.submit(s.t.keys.secretTest, init);

    const dueIn = async () =>
      (await svc.deps.db
        .selectFrom('webhook_deliveries')
        .select(['attempts', sql<number>`extract(epoch from next_attempt_at - ${svc.clock.now()})::float8`.as('dueIn')])
        .where('tenant_id', '=', s.t.tenantId)
        .executeTakeFirst()) ?? { attempts: 0, dueIn: 0 };
    const waitAttempts = async (n: number, ms: number) => {
      const until = Date.now() + ms;
      for (;;) {
        const d = await dueIn();
        if (d.attempts >= n) return d;
        if (Date.now() > until) throw new Error(`attempts ${d.attempts}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const first = await waitAttempts(1, 15_000);
    const log1 = await svc.deps.db.selectFrom('webhook_attempts').selectAll().orderBy('id').execute();
    expect(log1[0]).toMatchObject({ attempt: 1, status_code: null, error: 'timeout' });
    expect(log1[0]!.latency_ms).toBeGreaterThanOrEqual(9900);
    expect(log1[0]!.latency_ms).toBeLessThan(11_000);
    expect(first.dueIn).toBeGreaterThan(4);
    expect(first.dueIn).toBeLessThanOrEqual(5);

    const second = await waitAttempts(2, 10_000);
    expect(second.dueIn).toBeGreaterThan(29);
    expect(second.dueIn).toBeLessThanOrEqual(30);
    expect(receiver.requests.length).toBeGreaterThanOrEqual(2);
    // 10 s cut + 5 s wait, on the worker's own clock: the second attempt starts no earlier than the
    // first one's start + its latency + 5 s. (The receiver's arrival stamps are not used: on a loaded
    // machine the first arrival is stamped late, which shortened the gap they showed.)
    const log2 = await svc.deps.db.selectFrom('webhook_attempts').selectAll().orderBy('id').execute();
    expect(log2.map((a) => a.attempt)).toEqual([1, 2]);
    const gap = new Date(log2[1]!.started_at).getTime() - new Date(log2[0]!.started_at).getTime();
    expect(gap).toBeGreaterThanOrEqual(log2[0]!.latency_ms + 5_000 - 1);
    expect(gap).toBeGreaterThanOrEqual(14_900);
  }, 60_000);
});

describe('SSRF guard at send time', () => {
  let svc: TestService;
  afterAll(() => svc?.close());

  it.each([
    ['loopback by name', 'localhost'],
    ['loopback IPv4', '127.0.0.1'],
    ['loopback IPv6', '[::1]'],
    ['IPv4-mapped IPv6 loopback', '[::ffff:127.0.0.1]'],
    ['IPv4-mapped IPv6 hex form', '[::ffff:7f00:1]'],
    ['unspecified', '0.0.0.0'],
  ])('blocks %s without connecting', async (_label, host) => {
    if (!svc) svc = (await setup({})).svc;
    const api = new Api(svc.url);
    const t = await api.tenant(5);
    receiver.requests.length = 0;
    await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { webhook: { url: receiver.url('/hook', host), secret: SECRET } });
    const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    await api.submit(t.keys.secretTest, init);
    const until = Date.now() + 10_000;
    let d: any;
    do {
      d = (await api.admin('GET', `/admin/v1/tenants/${t.tenantId}/webhook-deliveries`)).body.deliveries[0];
      if (d?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < until);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: null, lastError: 'ssrf_blocked' });
    expect(receiver.requests.length).toBe(0);
  });
});

describe('a delivery in flight when the process dies', () => {
  it('is sent again after restart, with the same event id', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wh-crash-'));
    const db = BACKEND === 'postgres' ? await createTestDatabase() : null;
    const env = {
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      CLIENT_IP_HEADER,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      ...(db ? { DATABASE_URL: db.url } : {}),
    };
    let running: SpawnedService | null = null;
    try {
      receiver.requests.length = 0;
      receiver.responder = (n) => (n === 0 ? 'hang' : { status: 200 });
      running = await spawnService(env);
      const api = new Api(running.url);
      const t = await api.tenant(5);
      await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { webhook: { url: receiver.url(), secret: SECRET } });
      const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
      await api.submit(t.keys.secretTest, init);
      await receiver.waitFor(1);
      await killHard(running);

      running = await spawnService(env);
      const reqs = await receiver.waitFor(2, 45_000);
      expect(reqs[1]!.headers['service-event-id']).toBe(reqs[0]!.headers['service-event-id']);
      expect(reqs[1]!.body).toBe(reqs[0]!.body);
      const api2 = new Api(running.url);
      const until = Date.now() + 10_000;
      let d: any;
      do {
        d = (await api2.admin('GET', `/admin/v1/tenants/${t.tenantId}/webhook-deliveries`)).body.deliveries[0];
        if (d?.status === 'delivered') break;
        await new Promise((r) => setTimeout(r, 100));
      } while (Date.now() < until);
      expect(d.status).toBe('delivered');
    } finally {
      if (running) await killHard(running);
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
