import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyScanProgressive, plainJpeg, withFrameSize } from '@service/fixtures/hostile-jpegs';
import { Api, bearer, call, expectErrorShape } from '../helpers/api-client.js';
import { ADMIN_TOKEN, CLIENT_IP_HEADER, startTestService, type TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;

beforeAll(async () => {
  svc = await startTestService();
  api = new Api(svc.url);
});
afterAll(() => svc?.close());

const NUL = 'a\u0000b';
const LONE = 'Ana \ud800 Martinez';
const admin = (method: string, path: string, json?: unknown) =>
  call(svc.url, method, path, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, ...(json === undefined ? {} : { json }) });

describe('data the database cannot store is refused at the edge (400 invalid_body, never 500)', () => {
  it('NUL and lone surrogates in init fields', async () => {
    const t = await api.tenant(5);
    for (const body of [{ userRef: NUL }, { submittedFullName: NUL }, { submittedFullName: LONE }, { userRef: '\udc00' }]) {
      const r = await api.init(t.keys.publishable, body);
      expectErrorShape(r, 400, 'invalid_body');
      expect(Object.keys(r.body.detail.fieldErrors)).toEqual(Object.keys(body));
    }
    // A well-formed pair (an emoji) is text like any other.
    expect((await api.init(t.keys.publishable, { submittedFullName: 'Ana 😀 Martinez' })).status).toBe(200);
  }, 60_000);

  it('NUL in submit keys', async () => {
    const t = await api.tenant(5);
    const init = await api.prepared(t.keys.publishable);
    const r = await api.submit(t.keys.secret, init, { docFront: NUL, selfie: init.uploads.selfie.key });
    expectErrorShape(r, 400, 'invalid_body');
  });

  it('NUL in ids in paths and in query strings', async () => {
    const t = await api.tenant(5);
    expectErrorShape(
      await call(svc.url, 'GET', '/v1/verify/vf_%00aaaaaaaaaaaaaaaa', { headers: bearer(t.keys.secret) }),
      400,
      'invalid_body',
    );
    expectErrorShape(await admin('GET', '/admin/v1/tenants/ten_%00'), 400, 'invalid_body');
    expectErrorShape(await admin('PATCH', '/admin/v1/keys/%00', { allowedOrigins: [] }), 400, 'invalid_body');
    expectErrorShape(await admin('GET', `/admin/v1/tenants/${t.tenantId}/webhook-deliveries?status=%00`), 400, 'invalid_body');
    expectErrorShape(await admin('GET', '/admin/v1/tenants/%ff%fe'), 400, 'invalid_body');
  });

  it('NUL in operator API bodies, and integers outside the column range', async () => {
    const t = await api.tenant(5);
    expectErrorShape(await admin('POST', '/admin/v1/tenants', { name: NUL }), 400, 'invalid_body');
    expectErrorShape(await admin('POST', '/admin/v1/tenants', { name: 'x', credits: 2147483648 }), 400, 'invalid_body');
    expectErrorShape(await admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { credits: 2147483648 }), 400, 'invalid_body');
    expect((await admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { credits: 2147483647 })).status).toBe(200);
    const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Review' });
    await api.submit(t.keys.secretTest, init);
    await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed']);
    expectErrorShape(
      await admin('POST', `/admin/v1/verifications/${init.verificationId}/review`, { verdict: 'approved', note: NUL }),
      400,
      'invalid_body',
    );
    expectErrorShape(
      await admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, {
        webhook: { url: 'https://example.com/h', secret: `${'s'.repeat(30)}\u0000` },
      }),
      400,
      'invalid_body',
    );
  }, 120_000);

  it('refused requests still count against the per-IP limit, and enough of them get 429', async () => {
    const [a, b] = [await api.tenant(5), await api.tenant(5)];
    const ip = { [CLIENT_IP_HEADER]: '203.0.113.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await api.init((i % 2 ? a : b).keys.publishable, { userRef: NUL }, ip)).status);
    expect(statuses.every((s) => s === 400)).toBe(true);
    // Every one of them was counted (over however many clock minutes the burst took).
    const counted = await svc.deps.db
      .selectFrom('rate_limit_buckets')
      .select((eb) => eb.fn.sum<number>('count').as('n'))
      .where('key', '=', 'ip:203.0.113.77')
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(30);
    // Over the limit within one minute: 429 (the clock moved to a fresh minute first).
    const { rows } = await sql<{ s: number }>`select extract(epoch from ${svc.clock.now()})::float8 as s`.execute(svc.deps.db);
    svc.clock.advance(60 - (rows[0]!.s % 60) + 1);
    const burst = await Promise.all(
      Array.from({ length: 110 }, (_, i) => api.init((i % 2 ? a : b).keys.publishable, { userRef: NUL }, ip)),
    );
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(10);
    expect(burst.filter((r) => r.status >= 500)).toEqual([]);
  }, 90_000);
});

describe('hostile JPEG headers through the real flow (judged before any decoder sees them)', () => {
  it('21,000 scans and an 8000x8000 frame: rejected document_unreadable within seconds; the API answers on', async () => {
    const t = await api.tenant(5);
    const selfie = await plainJpeg(320, 240);
    for (const doc of [await manyScanProgressive(21_000), withFrameSize(await plainJpeg(320, 240), 8000, 8000)]) {
      const init = (await api.init(t.keys.publishable, { submittedFullName: 'Ana Martinez' })).body;
      expect((await api.upload(init, 'docFront', doc)).status).toBe(200);
      expect((await api.upload(init, 'selfie', selfie)).status).toBe(200);
      expect((await api.submit(t.keys.secret, init)).status).toBe(202);
      const done = await api.waitForStatus(t.keys.secret, init.verificationId, ['completed', 'failed'], 20_000);
      expect(done.body).toMatchObject({ status: 'completed', verdict: 'rejected', reasons: ['document_unreadable'] });
    }
    expect((await call(svc.url, 'GET', '/health')).status).toBe(200);
  }, 60_000);
});
