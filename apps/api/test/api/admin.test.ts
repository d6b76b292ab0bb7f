import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, serviceWithTenant, call, expectErrorShape, type TenantKeys } from '../helpers/api-client.js';
import type { TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;

beforeAll(async () => ({ svc, api, t } = await serviceWithTenant(5)));
afterAll(() => svc?.close());

describe('operator API', () => {
  it('wrong or missing token: 401 invalid_admin_token', async () => {
    expectErrorShape(await call(svc.url, 'POST', '/admin/v1/tenants', { json: { name: 'x' } }), 401, 'invalid_admin_token');
    expectErrorShape(
      await call(svc.url, 'GET', `/admin/v1/tenants/${t.tenantId}`, { headers: { Authorization: 'Bearer nope' } }),
      401,
      'invalid_admin_token',
    );
    expectErrorShape(
      await call(svc.url, 'GET', `/admin/v1/tenants/${t.tenantId}`, { headers: { Authorization: `Bearer ${t.keys.secret}` } }),
      401,
      'invalid_admin_token',
    );
  });

  it('creates a tenant with four keys of the four prefixes, credits default 0', async () => {
    const r = await api.admin('POST', '/admin/v1/tenants', { name: 'Zero' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'Zero', credits: 0 });
    expect(r.body.tenantId).toMatch(/^tn_/);
    expect(r.body.keys.publishable).toMatch(/^qv_pub_[A-Za-z0-9_]{16,64}$/);
    expect(r.body.keys.secret).toMatch(/^qv_sec_[A-Za-z0-9_]{16,64}$/);
    expect(r.body.keys.publishableTest).toMatch(/^qv_pubt_[A-Za-z0-9_]{16,64}$/);
    expect(r.body.keys.secretTest).toMatch(/^qv_sect_[A-Za-z0-9_]{16,64}$/);
    expect((await api.admin('POST', '/admin/v1/tenants', {})).body.error).toBe('invalid_body');
    expect((await api.admin('POST', '/admin/v1/tenants', { name: 'x', credits: -1 })).body.error).toBe('invalid_body');
  });

  it('reads and patches a tenant; unknown tenant is 404', async () => {
    expect((await api.admin('GET', `/admin/v1/tenants/${t.tenantId}`)).body).toMatchObject({
      tenantId: t.tenantId,
      name: 'Acme',
      credits: 5,
      webhook: null,
    });
    expect((await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { credits: 7 })).body.credits).toBe(7);
    expect((await api.admin('GET', '/admin/v1/tenants/tn_nope')).status).toBe(404);
  });

  it('webhook: https only, secret of 24+ characters, never returned, blank keeps, new replaces', async () => {
    const path = `/admin/v1/tenants/${t.tenantId}`;
    const bad1 = await api.admin('PATCH', path, { webhook: { url: 'http://hooks.example.com/x', secret: 's'.repeat(24) } });
    expectErrorShape(bad1, 400, 'invalid_body');
    expect(bad1.body.detail.fieldErrors['webhook.url']).toBeDefined();
    const bad2 = await api.admin('PATCH', path, { webhook: { url: 'https://hooks.example.com/x', secret: 's'.repeat(23) } });
    expect(bad2.body.detail.fieldErrors['webhook.secret']).toBeDefined();
    expect((await api.admin('PATCH', path, { webhook: { url: 'https://hooks.example.com/x' } })).status).toBe(400);

    const ok = await api.admin('PATCH', path, { webhook: { url: 'https://hooks.example.com/x', secret: 'first-secret-0123456789ab' } });
    expect(ok.status).toBe(200);
    expect(ok.body.webhook).toEqual({ url: 'https://hooks.example.com/x' });
    expect(JSON.stringify(ok.body)).not.toContain('first-secret');
    const kept = await api.admin('PATCH', path, { webhook: { url: 'https://hooks.example.com/y', secret: '' } });
    expect(kept.body.webhook.url).toBe('https://hooks.example.com/y');
    const stored = async () =>
      (await svc.deps.db.selectFrom('tenants').select('webhook_secret').where('id', '=', t.tenantId).executeTakeFirstOrThrow())
        .webhook_secret;
    expect(await stored()).toBe('first-secret-0123456789ab');
    await api.admin('PATCH', path, { webhook: { url: 'https://hooks.example.com/y', secret: 'second-secret-0123456789' } });
    expect(await stored()).toBe('second-secret-0123456789');
    expect(JSON.stringify((await api.admin('GET', path)).body)).not.toContain('secret-0123');
  });

  it('creates keys with origins, lists them without secrets, patches and revokes', async () => {
    const r = await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/keys`, {
      family: 'secret',
      mode: 'test',
      allowedOrigins: ['App.Example.com'],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ family: 'secret', mode: 'test', allowedOrigins: ['app.example.com'] });
    expect(r.body.key).toMatch(/^qv_sect_/);
    expect((await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/keys`, { family: 'admin', mode: 'live' })).status).toBe(400);
    expect(
      (
        await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/keys`, {
          family: 'secret',
          mode: 'live',
          allowedOrigins: ['https://x.com'],
        })
      ).status,
    ).toBe(400);
    const list = await api.admin('GET', `/admin/v1/tenants/${t.tenantId}/keys`);
    expect(list.body.keys.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(list.body)).not.toContain(r.body.key);
    // Keys are told apart by a non-secret prefix and the last four characters.
    const listed = list.body.keys.find((k: { keyId: string }) => k.keyId === r.body.keyId);
    expect(listed).toMatchObject({ prefix: 'qv_sect_', lastFour: r.body.key.slice(-4) });
    const revoked = await api.admin('POST', `/admin/v1/keys/${r.body.keyId}/revoke`);
    expect(revoked.body.revoked).toBe(true);
    expect((await api.admin('POST', '/admin/v1/keys/key_nope/revoke')).status).toBe(404);
  });

  it('review: 409 not_in_review unless the verdict is review; then records the decision', async () => {
    const approve = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    await api.submit(t.keys.secretTest, approve);
    await api.waitForStatus(t.keys.secretTest, approve.verificationId, ['completed']);
    expectErrorShape(
      await api.admin('POST', `/admin/v1/verifications/${approve.verificationId}/review`, { verdict: 'approved' }),
      409,
      'not_in_review',
    );

    const review = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Review' });
    expectErrorShape(
      await api.admin('POST', `/admin/v1/verifications/${review.verificationId}/review`, { verdict: 'approved' }),
      409,
      'not_in_review',
    );
    await api.submit(t.keys.secretTest, review);
    await api.waitForStatus(t.keys.secretTest, review.verificationId, ['completed']);
    expect((await api.admin('POST', `/admin/v1/verifications/${review.verificationId}/review`, { verdict: 'maybe' })).status).toBe(400);
    const decided = await api.admin('POST', `/admin/v1/verifications/${review.verificationId}/review`, {
      verdict: 'rejected',
      note: 'document photo tampered',
    });
    expect(decided.status).toBe(200);
    const record = await api.result(t.keys.secretTest, review.verificationId);
    expect(record.body).toMatchObject({ status: 'completed', verdict: 'rejected', review: { decision: 'rejected' } });
    expect(JSON.stringify(record.body)).not.toContain('tampered');
    expectErrorShape(
      await api.admin('POST', `/admin/v1/verifications/${review.verificationId}/review`, { verdict: 'approved' }),
      409,
      'not_in_review',
    );
    expectErrorShape(
      await api.admin('POST', '/admin/v1/verifications/vf_DDDDDDDDDDDDDDDDDDDD/review', { verdict: 'approved' }),
      404,
      'verification_not_found',
    );
    const events = await svc.deps.db
      .selectFrom('webhook_events')
      .select(['type', 'body'])
      .where('verification_id', '=', review.verificationId)
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['verification.needs_review', 'verification.reviewed']);
    expect(JSON.parse(events[1]!.body).verdict).toBe('rejected');
  });
});
