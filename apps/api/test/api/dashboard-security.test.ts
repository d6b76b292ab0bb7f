import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, bearer, call, expectErrorShape, reason, type TenantKeys } from '../helpers/api-client.js';
import { DashboardClient, dashboardUser } from '../helpers/dashboard-client.js';
import { FAILING_PIPELINE, startTestService, type TestService } from '../helpers/test-service.js';

// API tests of the dashboard's security model over HTTP (decisions.md "Dashboard"): sessions,
// cookie flags, CSRF, lockout, roles and tenant isolation. Test-mode names force verdicts, so no
// vision model is loaded; a live verification would meet a pipeline that fails outright.
// Every sign-in costs one scrypt (32 MiB, tens of ms alone, seconds on a loaded machine): the
// tests that sign in many times get a longer timeout.
const MANY_SIGN_INS = 120_000;
let svc: TestService;
let api: Api;
let a: TenantKeys;
let b: TenantKeys;
let adminA: DashboardClient;
let reviewerA: DashboardClient;
let adminB: DashboardClient;

beforeAll(async () => {
  svc = await startTestService(
    {},
    {
      pipeline: FAILING_PIPELINE,
    },
  );
  api = new Api(svc.url);
  a = await api.tenant(10);
  b = await api.tenant(10);
  adminA = (await dashboardUser(api, a.tenantId, 'admin')).client;
  reviewerA = (await dashboardUser(api, a.tenantId, 'reviewer')).client;
  adminB = (await dashboardUser(api, b.tenantId, 'admin')).client;
});
afterAll(async () => {
  await svc?.close();
});

async function completedTest(t: TenantKeys, name: string) {
  const init = await api.prepared(t.keys.publishableTest, { submittedFullName: name });
  expect((await api.submit(t.keys.secretTest, init)).status).toBe(202);
  await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed', 'failed']);
  return init.verificationId as string;
}

describe('operator route: POST /admin/v1/tenants/:tenantId/users', () => {
  it('creates a user with a password (no invite) or with a single-use invite valid 24 h', async () => {
    const withPassword = await api.admin('POST', `/admin/v1/tenants/${a.tenantId}/users`, {
      email: 'Direct.User@Example.com',
      role: 'reviewer',
      password: 'a long enough password',
    });
    expect(withPassword.status).toBe(201);
    expect(withPassword.body).toMatchObject({ email: 'direct.user@example.com', role: 'reviewer', inviteUrl: null });
    expect(withPassword.body.userId).toMatch(/^usr_/);

    const invited = await api.admin('POST', `/admin/v1/tenants/${a.tenantId}/users`, { email: 'invited@example.com', role: 'admin' });
    expect(invited.status).toBe(201);
    const url = new URL(invited.body.inviteUrl);
    expect(url.pathname).toBe('/dashboard/invite');
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const client = new DashboardClient(svc.url);
    expect((await client.signIn('invited@example.com', 'whatever password')).status).toBe(401);

    const short = await call(svc.url, 'POST', '/dashboard/api/invites/accept', { json: { token, password: 'short' } });
    expectErrorShape(short, 400, 'invalid_body');
    const ok = await call(svc.url, 'POST', '/dashboard/api/invites/accept', { json: { token, password: 'my chosen password' } });
    expect(ok.status).toBe(200);
    const again = await call(svc.url, 'POST', '/dashboard/api/invites/accept', { json: { token, password: 'another password!' } });
    expect(reason(again)).toBe('invite_invalid');
    expect((await client.signIn('invited@example.com', 'my chosen password')).status).toBe(201);
  });

  it('an invite expires after 24 h', async () => {
    const invited = await api.admin('POST', `/admin/v1/tenants/${a.tenantId}/users`, { email: 'late@example.com', role: 'reviewer' });
    const token = new URLSearchParams(new URL(invited.body.inviteUrl).hash.slice(1)).get('token')!;
    svc.clock.advance(24 * 3600 + 5);
    try {
      const r = await call(svc.url, 'POST', '/dashboard/api/invites/accept', { json: { token, password: 'my chosen password' } });
      expect(reason(r)).toBe('invite_invalid');
    } finally {
      svc.clock.advance(-(24 * 3600 + 5));
    }
  });

  it('needs the admin token, a valid body and a known tenant; an email is taken once', async () => {
    const path = `/admin/v1/tenants/${a.tenantId}/users`;
    expectErrorShape(await call(svc.url, 'POST', path, { json: { email: 'x@example.com', role: 'admin' } }), 401, 'invalid_admin_token');
    expectErrorShape(await api.admin('POST', path, { email: 'not-an-email', role: 'admin' }), 400, 'invalid_body');
    expectErrorShape(await api.admin('POST', path, { email: 'y@example.com', role: 'owner' }), 400, 'invalid_body');
    expectErrorShape(
      await api.admin('POST', path, { email: 'y@example.com', role: 'admin', password: 'elevenchars' }),
      400,
      'invalid_body',
    );
    expectErrorShape(
      await api.admin('POST', '/admin/v1/tenants/tn_nope/users', { email: 'z@example.com', role: 'admin' }),
      404,
      'not_found',
    );
    await api.admin('POST', path, { email: 'twice@example.com', role: 'admin' });
    expectErrorShape(await api.admin('POST', path, { email: 'TWICE@example.com', role: 'admin' }), 409, 'user_exists');
  });
});

describe('sessions', () => {
  it('sets an HttpOnly, SameSite=Strict cookie on /dashboard; Secure behind HTTPS', async () => {
    const { client, email, password } = await dashboardUser(api, a.tenantId, 'reviewer');
    expect(client.setCookie).toMatch(/HttpOnly/);
    expect(client.setCookie).toMatch(/SameSite=Strict/);
    expect(client.setCookie).toMatch(/Path=\/dashboard/);
    expect(client.setCookie).not.toMatch(/Secure/);
    const saved = svc.deps.config.publicBaseUrl;
    svc.deps.config.publicBaseUrl = 'https://verify.example.com';
    try {
      const again = new DashboardClient(svc.url);
      await again.signIn(email, password);
      expect(again.setCookie).toMatch(/; Secure/);
    } finally {
      svc.deps.config.publicBaseUrl = saved;
    }
  });

  it('every API route needs a session: 401 not_signed_in', async () => {
    for (const path of ['/session', '/verifications', '/keys', '/webhook', '/audit']) {
      expectErrorShape(await call(svc.url, 'GET', `/dashboard/api${path}`), 401, 'not_signed_in');
    }
    const forged = new DashboardClient(svc.url);
    forged.cookie = 'forged-session-value';
    expectErrorShape(await forged.get('/session'), 401, 'not_signed_in');
  });

  it('wrong password or unknown email: 401 invalid_credentials, the same answer', async () => {
    const { email } = await dashboardUser(api, a.tenantId, 'reviewer');
    const c = new DashboardClient(svc.url);
    expectErrorShape(await c.signIn(email, 'wrong password here'), 401, 'invalid_credentials');
    expectErrorShape(await c.signIn('nobody@example.com', 'wrong password here'), 401, 'invalid_credentials');
  });

  it('sign-out ends the session server-side: the old cookie is refused afterwards', async () => {
    const { client } = await dashboardUser(api, a.tenantId, 'admin');
    const copy = new DashboardClient(svc.url);
    copy.cookie = client.cookie;
    copy.csrf = client.csrf;
    expect((await client.post('/session/sign-out')).status).toBe(200);
    expectErrorShape(await copy.get('/session'), 401, 'not_signed_in');
    expectErrorShape(await copy.get('/verifications'), 401, 'not_signed_in');
  });

  it('a session ends after 12 h idle; each request renews it', async () => {
    const { client } = await dashboardUser(api, a.tenantId, 'reviewer');
    svc.clock.advance(11 * 3600);
    try {
      expect((await client.get('/session')).status).toBe(200);
      svc.clock.advance(11 * 3600);
      expect((await client.get('/session')).status).toBe(200);
      svc.clock.advance(12 * 3600 + 1);
      expectErrorShape(await client.get('/session'), 401, 'not_signed_in');
    } finally {
      svc.clock.advance(-(34 * 3600 + 1));
    }
  });

  it(
    'five failed sign-ins within 15 minutes lock the email for 15 minutes, even with the right password',
    async () => {
      const { email, password } = await dashboardUser(api, a.tenantId, 'reviewer');
      const c = new DashboardClient(svc.url);
      for (let i = 0; i < 5; i++) expectErrorShape(await c.signIn(email, `wrong password ${i}`), 401, 'invalid_credentials');
      const locked = await c.signIn(email, password);
      expectErrorShape(locked, 429, 'account_locked');
      expect(locked.body.detail.retry_after).toBeGreaterThan(800);
      svc.clock.advance(14 * 60);
      try {
        expectErrorShape(await c.signIn(email, password), 429, 'account_locked');
        svc.clock.advance(61);
        expect((await c.signIn(email, password)).status).toBe(201);
      } finally {
        svc.clock.advance(-(15 * 60 + 1));
      }
    },
    MANY_SIGN_INS,
  );

  it(
    'failures spread over more than 15 minutes do not lock',
    async () => {
      const { email, password } = await dashboardUser(api, a.tenantId, 'reviewer');
      const c = new DashboardClient(svc.url);
      for (let i = 0; i < 4; i++) await c.signIn(email, 'wrong password!!');
      svc.clock.advance(16 * 60);
      try {
        await c.signIn(email, 'wrong password!!');
        expect((await c.signIn(email, password)).status).toBe(201);
      } finally {
        svc.clock.advance(-16 * 60);
      }
    },
    MANY_SIGN_INS,
  );

  it('sign-in from another site is refused by its Origin', async () => {
    const r = await call(svc.url, 'POST', '/dashboard/api/session', {
      headers: { Origin: 'https://evil.example' },
      json: { email: 'x@example.com', password: 'whatever password' },
    });
    expectErrorShape(r, 403, 'csrf_token_invalid');
  });
});

describe('CSRF: a change without the session token changes nothing', () => {
  it('webhook settings, keys, review, requeue and sign-out all refuse it', async () => {
    const vid = await completedTest(a, 'Test Review');
    const keysBefore = (await adminA.get('/keys')).body.keys.length;
    const webhookBefore = (await adminA.get('/webhook')).body;

    const attempts = [
      adminA.req('PUT', '/webhook', { url: 'https://hooks.example.com/x', secret: 'x'.repeat(30) }, { csrf: false }),
      adminA.post('/keys', { family: 'secret', mode: 'test' }, { csrf: false }),
      adminA.post(`/verifications/${vid}/review`, { verdict: 'approved' }, { csrf: false }),
      adminA.post('/webhook/deliveries/requeue-failed', {}, { csrf: false }),
      adminA.post('/session/sign-out', {}, { csrf: false }),
    ];
    for (const r of await Promise.all(attempts)) expectErrorShape(r, 403, 'csrf_token_invalid');
    const wrong = new DashboardClient(svc.url);
    wrong.cookie = adminA.cookie;
    wrong.csrf = 'not-the-token';
    expectErrorShape(await wrong.post('/keys', { family: 'secret', mode: 'test' }), 403, 'csrf_token_invalid');

    expect((await adminA.get('/keys')).body.keys.length).toBe(keysBefore);
    expect((await adminA.get('/webhook')).body).toMatchObject({ url: webhookBefore.url, secretSet: webhookBefore.secretSet });
    expect((await adminA.get(`/verifications/${vid}`)).body.awaitingReview).toBe(true);
    expect((await adminA.get('/session')).status).toBe(200);
  });
});

describe('roles', () => {
  it('a reviewer cannot reach keys, webhooks, deliveries, credits or the audit log', async () => {
    const gets = ['/keys', '/webhook', '/webhook/deliveries', '/tenant', '/audit'];
    for (const p of gets) expectErrorShape(await reviewerA.get(p), 403, 'forbidden_for_role');
    expectErrorShape(await reviewerA.post('/keys', { family: 'secret', mode: 'live' }), 403, 'forbidden_for_role');
    expectErrorShape(
      await reviewerA.req('PUT', '/webhook', { url: 'https://hooks.example.com/r', secret: 'r'.repeat(30) }),
      403,
      'forbidden_for_role',
    );
    expectErrorShape(await reviewerA.post('/webhook/deliveries/requeue-failed'), 403, 'forbidden_for_role');
    expect((await adminA.get('/webhook')).body.url).not.toBe('https://hooks.example.com/r');
  });

  it('a reviewer sees verifications and decides reviews', async () => {
    const vid = await completedTest(a, 'Test Review');
    const queue = await reviewerA.get('/verifications?mode=test&awaitingReview=true');
    expect(queue.status).toBe(200);
    expect(queue.body.data.map((v: any) => v.verificationId)).toContain(vid);
    const decided = await reviewerA.post(`/verifications/${vid}/review`, { verdict: 'rejected', note: 'photo of a screen' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ verificationId: vid, verdict: 'rejected', review: { decision: 'rejected' } });
    const after = await reviewerA.get('/verifications?mode=test&awaitingReview=true');
    expect(after.body.data.map((v: any) => v.verificationId)).not.toContain(vid);
    // The same decision path as the operator route: the result record and the webhook event.
    const rec = await api.result(a.keys.secretTest, vid);
    expect(rec.body).toMatchObject({ verdict: 'rejected', review: { decision: 'rejected' } });
    const events = await svc.deps.db.selectFrom('webhook_events').select('type').where('verification_id', '=', vid).execute();
    expect(events.map((e) => e.type)).toContain('verification.reviewed');
    expectErrorShape(await reviewerA.post(`/verifications/${vid}/review`, { verdict: 'approved' }), 409, 'not_in_review');
  });
});

describe('tenant isolation (id guessing)', () => {
  it("one tenant's user never reads or changes another tenant's verification, image, key or delivery", async () => {
    const vid = await completedTest(a, 'Test Review');
    expect((await adminA.get(`/verifications/${vid}`)).status).toBe(200);
    expect((await adminA.get(`/verifications/${vid}/images/selfie`)).status).toBe(200);

    expectErrorShape(await adminB.get(`/verifications/${vid}`), 404, 'verification_not_found');
    expectErrorShape(await adminB.get(`/verifications/${vid}/images/selfie`), 404, 'verification_not_found');
    expectErrorShape(await adminB.get(`/verifications/${vid}/images/doc-front`), 404, 'verification_not_found');
    expectErrorShape(await adminB.post(`/verifications/${vid}/review`, { verdict: 'approved' }), 404, 'verification_not_found');
    const listB = await adminB.get('/verifications?mode=test');
    expect(listB.body.data.map((v: any) => v.verificationId)).not.toContain(vid);
    expect((await adminA.get(`/verifications/${vid}`)).body.awaitingReview).toBe(true);

    const keyA = (await adminA.post('/keys', { family: 'secret', mode: 'test' })).body;
    expectErrorShape(await adminB.post(`/keys/${keyA.keyId}/revoke`), 404, 'not_found');
    expectErrorShape(await adminB.req('PATCH', `/keys/${keyA.keyId}`, { allowedOrigins: ['evil.example'] }), 404, 'not_found');
    expect((await api.result(keyA.key, vid)).status).toBe(200);
    expect((await adminB.get('/keys')).body.keys.map((k: any) => k.keyId)).not.toContain(keyA.keyId);
  });

  it('a delivery of another tenant cannot be requeued', async () => {
    await adminA.req('PUT', '/webhook', { url: 'https://127.0.0.1:9/hook', secret: 's'.repeat(30) });
    const vid = await completedTest(a, 'Test Approve');
    const d = await svc.deps.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select('d.id')
      .where('e.verification_id', '=', vid)
      .executeTakeFirstOrThrow();
    expectErrorShape(await adminB.post(`/webhook/deliveries/${d.id}/requeue`), 404, 'not_found');
    expect((await adminA.post(`/webhook/deliveries/${d.id}/requeue`)).status).toBe(200);
  });
});

describe('images', () => {
  it('served only to a signed-in user of the tenant, with Cache-Control: no-store, and each view audited', async () => {
    const vid = await completedTest(a, 'Test Approve');
    expectErrorShape(await call(svc.url, 'GET', `/dashboard/api/verifications/${vid}/images/selfie`), 401, 'not_signed_in');
    const r = await adminA.get(`/verifications/${vid}/images/selfie`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/jpeg');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expectErrorShape(await adminA.get(`/verifications/${vid}/images/doc-back`), 404, 'not_found');
    expectErrorShape(await adminA.get(`/verifications/${vid}/images/..%2f..%2fetc`), 404, 'not_found');
    const log = (await adminA.get('/audit')).body.data;
    expect(log[0]).toMatchObject({ action: 'verification.image_viewed', target: vid, detail: { role: 'selfie' } });
  });
});

describe('keys, webhook settings, audit', () => {
  it('a created key is shown once, listed by prefix and last four, and a revoked key fails at the next request', async () => {
    const created = await adminA.post('/keys', { family: 'secret', mode: 'test', allowedOrigins: [] });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^qv_sect_/);
    const listed = (await adminA.get('/keys')).body.keys.find((k: any) => k.keyId === created.body.keyId);
    expect(listed).toMatchObject({ prefix: 'qv_sect_', lastFour: created.body.key.slice(-4), mode: 'test', revokedAt: null });
    expect(JSON.stringify((await adminA.get('/keys')).body)).not.toContain(created.body.key);

    const vid = await completedTest(a, 'Test Approve');
    expect((await api.result(created.body.key, vid)).status).toBe(200);
    expect((await adminA.post(`/keys/${created.body.keyId}/revoke`)).status).toBe(200);
    expectErrorShape(await call(svc.url, 'GET', `/v1/verify/${vid}`, { headers: bearer(created.body.key) }), 401, 'invalid_api_key');

    const origins = await adminA.req('PATCH', `/keys/${created.body.keyId}`, { allowedOrigins: ['shop.example.com'] });
    expect(origins.body.allowedOrigins).toEqual(['shop.example.com']);
  });

  it('webhook settings follow the interface: https only, secret >= 24, write-only, blank keeps it', async () => {
    expectErrorShape(
      await adminA.req('PUT', '/webhook', { url: 'http://hooks.example.com/x', secret: 'x'.repeat(30) }),
      400,
      'invalid_body',
    );
    expectErrorShape(await adminA.req('PUT', '/webhook', { url: 'https://hooks.example.com/x', secret: 'short' }), 400, 'invalid_body');
    const secret = 'first-secret-0123456789abcdef';
    expect((await adminA.req('PUT', '/webhook', { url: 'https://hooks.example.com/x', secret })).status).toBe(200);
    const shown = await adminA.get('/webhook');
    expect(shown.body).toMatchObject({ url: 'https://hooks.example.com/x', secretSet: true });
    expect(JSON.stringify(shown.body)).not.toContain(secret);
    expect((await adminA.req('PUT', '/webhook', { url: 'https://hooks.example.com/y', secret: '' })).status).toBe(200);
    const row = await svc.deps.db
      .selectFrom('tenants')
      .select(['webhook_url', 'webhook_secret'])
      .where('id', '=', a.tenantId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ webhook_url: 'https://hooks.example.com/y', webhook_secret: secret });
  });

  it('the audit log records who did what and when, for the tenant only', async () => {
    const log = (await adminA.get('/audit?limit=100')).body;
    const actions = new Set(log.data.map((e: any) => e.action));
    for (const a of [
      'session.signed_in',
      'key.created',
      'key.revoked',
      'webhook.updated',
      'verification.reviewed',
      'verification.image_viewed',
    ]) {
      expect(actions).toContain(a);
    }
    expect(log.data[0].userEmail).toMatch(/@example\.com$/);
    expect(Date.parse(log.data[0].at)).not.toBeNaN();
    const logB = (await adminB.get('/audit?limit=100')).body.data;
    expect(logB.every((e: any) => e.action === 'session.signed_in')).toBe(true);
  });
});

describe('verification list and detail', () => {
  it('pages with a cursor, filters, and keeps live and test apart', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await completedTest(b, 'Test Reject'));
    const p1 = await adminB.get('/verifications?mode=test&verdict=rejected&limit=2');
    expect(p1.body.data).toHaveLength(2);
    expect(p1.body.nextCursor).toBe(p1.body.data[1].verificationId);
    const p2 = await adminB.get(`/verifications?mode=test&verdict=rejected&limit=2&cursor=${p1.body.nextCursor}`);
    const seen = [...p1.body.data, ...p2.body.data].map((v: any) => v.verificationId);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect((await adminB.get('/verifications?mode=live')).body.data).toEqual([]);
    expectErrorShape(await adminB.get('/verifications?mode=both'), 400, 'invalid_body');
    expectErrorShape(await adminB.get('/verifications?limit=1000'), 400, 'invalid_body');

    const detail = (await adminB.get(`/verifications/${ids[0]}`)).body;
    expect(detail).toMatchObject({ verificationId: ids[0], mode: 'test', verdict: 'rejected', submittedFullName: 'Test Reject' });
    expect(detail.images).toEqual(expect.arrayContaining(['doc-front', 'selfie']));
    expect(detail.timeline.map((t: any) => t.label)).toEqual(expect.arrayContaining(['Created', 'Submitted', 'Completed']));
  });
});
