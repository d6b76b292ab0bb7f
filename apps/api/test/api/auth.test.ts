import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, serviceWithTenant, call, expectErrorShape, type TenantKeys } from '../helpers/api-client.js';
import type { TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;

beforeAll(async () => ({ svc, api, t } = await serviceWithTenant()));
afterAll(() => svc?.close());

describe('API keys', () => {
  it('no Authorization header, or not a Bearer token: 401 missing_api_key', async () => {
    expectErrorShape(await call(svc.url, 'POST', '/v1/verify/init', { json: {} }), 401, 'missing_api_key');
    expectErrorShape(
      await call(svc.url, 'POST', '/v1/verify/init', { json: {}, headers: { Authorization: `Basic ${t.keys.publishable}` } }),
      401,
      'missing_api_key',
    );
    expectErrorShape(
      await call(svc.url, 'POST', '/v1/verify/init', { json: {}, headers: { Authorization: t.keys.publishable } }),
      401,
      'missing_api_key',
    );
  });

  it.each([
    ['unknown key of a valid form', 'qv_pub_' + 'A'.repeat(32)],
    ['the non-existent qv_pub_test_ form', 'qv_pub_test_' + 'a'.repeat(20)],
    ['too short', 'qv_pub_abc'],
    ['too long', 'qv_pub_' + 'a'.repeat(65)],
    ['bad characters', 'qv_pub_' + 'a'.repeat(20) + '-x'],
    ['unknown prefix', 'qv_live_' + 'a'.repeat(20)],
  ])('%s: 401 invalid_api_key', async (_label, key) => {
    expectErrorShape(await api.init(key), 401, 'invalid_api_key');
  });

  it('a revoked key fails from the next request on', async () => {
    const created = await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/keys`, { family: 'publishable', mode: 'live' });
    expect(created.status).toBe(201);
    expect((await api.init(created.body.key)).status).toBe(200);
    expect((await api.admin('POST', `/admin/v1/keys/${created.body.keyId}/revoke`)).status).toBe(200);
    expectErrorShape(await api.init(created.body.key), 401, 'invalid_api_key');
  });

  it('a publishable key may not read results: 401 secret_key_required', async () => {
    const init = await api.init(t.keys.publishable);
    expectErrorShape(await api.result(t.keys.publishable, init.body.verificationId), 401, 'secret_key_required');
    expectErrorShape(await api.result(t.keys.publishableTest, init.body.verificationId), 401, 'secret_key_required');
  });

  it('a zero balance is 402 insufficient_credits for every key of the tenant', async () => {
    const poor = await api.tenant(0);
    for (const key of Object.values(poor.keys)) expectErrorShape(await api.init(key), 402, 'insufficient_credits');
    expectErrorShape(await api.result(poor.keys.secret, 'vf_AAAAAAAAAAAAAAAAAAAA'), 402, 'insufficient_credits');
    await api.admin('PATCH', `/admin/v1/tenants/${poor.tenantId}`, { credits: 1 });
    expect((await api.init(poor.keys.publishable)).status).toBe(200);
  });

  it('keys are stored hashed: no key string in the database', async () => {
    const rows = await svc.deps.db.selectFrom('api_keys').select('key_hash').execute();
    const all = JSON.stringify(rows);
    for (const key of Object.values(t.keys)) expect(all).not.toContain(key);
  });
});

describe('allowed origins', () => {
  let key: string;
  let keyId: string;
  beforeAll(async () => {
    const r = await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/keys`, {
      family: 'publishable',
      mode: 'live',
      allowedOrigins: ['shop.example.com'],
    });
    expect(r.body.allowedOrigins).toEqual(['shop.example.com']);
    key = r.body.key;
    keyId = r.body.keyId;
  });

  it('compares hostnames only (scheme and port ignored)', async () => {
    expect((await api.init(key, {}, { Origin: 'https://shop.example.com' })).status).toBe(200);
    expect((await api.init(key, {}, { Origin: 'http://shop.example.com:8443' })).status).toBe(200);
    expect((await api.init(key, {}, { Origin: 'https://SHOP.Example.com' })).status).toBe(200);
  });

  it('rejects another origin with 403 origin_not_allowed', async () => {
    expectErrorShape(await api.init(key, {}, { Origin: 'https://evil.example.com' }), 403, 'origin_not_allowed');
    expectErrorShape(await api.init(key, {}, { Origin: 'https://sub.shop.example.com' }), 403, 'origin_not_allowed');
    expectErrorShape(await api.init(key, {}, { Origin: 'null' }), 403, 'origin_not_allowed');
  });

  it('never checks requests without Origin', async () => {
    expect((await api.init(key)).status).toBe(200);
  });

  it('an empty list allows every origin; the list can be changed', async () => {
    expect((await api.init(t.keys.publishable, {}, { Origin: 'https://anything.example' })).status).toBe(200);
    const patched = await api.admin('PATCH', `/admin/v1/keys/${keyId}`, { allowedOrigins: [] });
    expect(patched.status).toBe(200);
    expect(patched.body.key).toBeUndefined();
    expect((await api.init(key, {}, { Origin: 'https://evil.example.com' })).status).toBe(200);
  });
});

describe('CORS', () => {
  it('answers preflights with a 10-minute cache, never rate limited', async () => {
    for (let i = 0; i < 105; i++) {
      const r = await fetch(`${svc.url}/v1/verify/init`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://shop.example.com',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type',
          'x-test-client-ip': '192.0.2.77',
        },
      });
      expect(r.status).toBe(204);
      if (i === 0) {
        expect(r.headers.get('access-control-max-age')).toBe('600');
        expect(r.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
        expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-service-upload-token');
      }
    }
  });

  it('exposes X-Request-Id and Retry-After on cross-origin responses, errors included', async () => {
    const r = await api.init('qv_pub_' + 'Z'.repeat(30), {}, { Origin: 'https://shop.example.com' });
    expect(r.status).toBe(401);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(r.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });
});

describe('tenant isolation and modes', () => {
  it("another tenant's verification is 404 on result and submit", async () => {
    const other = await api.tenant();
    const mine = await api.prepared(t.keys.publishable);
    expectErrorShape(await api.result(other.keys.secret, mine.verificationId), 404, 'verification_not_found');
    expectErrorShape(await api.submit(other.keys.secret, mine), 404, 'verification_not_found');
    expect((await api.result(t.keys.secret, mine.verificationId)).status).toBe(200);
  });

  it('live and test records are separate', async () => {
    const live = await api.init(t.keys.publishable);
    const test = await api.init(t.keys.publishableTest);
    expectErrorShape(await api.result(t.keys.secretTest, live.body.verificationId), 404, 'verification_not_found');
    expectErrorShape(await api.result(t.keys.secret, test.body.verificationId), 404, 'verification_not_found');
    expect((await api.result(t.keys.secretTest, test.body.verificationId)).body.mode).toBe('test');
    expect((await api.result(t.keys.secret, live.body.verificationId)).body.mode).toBe('live');
  });

  it('unknown and malformed ids are 404 verification_not_found', async () => {
    expectErrorShape(await api.result(t.keys.secret, 'vf_AAAAAAAAAAAAAAAAAAAA'), 404, 'verification_not_found');
    expectErrorShape(await api.result(t.keys.secret, 'not-an-id'), 404, 'verification_not_found');
    expectErrorShape(await api.result(t.keys.secret, 'vf_short'), 404, 'verification_not_found');
  });

  it('the result record never carries userRef or the typed name', async () => {
    const init = await api.init(t.keys.publishable, { userRef: 'user-778', submittedFullName: 'Ada Lovelace' });
    const r = await api.result(t.keys.secret, init.body.verificationId);
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain('user-778');
    expect(text).not.toContain('Lovelace'); // not 'Ada': three letters a random id can hold
    expect(r.body).not.toHaveProperty('userRef');
    expect(r.body).toMatchObject({
      verificationId: init.body.verificationId,
      status: 'queued',
      verdict: null,
      mode: 'live',
      completedAt: null,
      reasons: [],
      review: null,
    });
    expect(new Date(r.body.createdAt).toISOString()).toBe(r.body.createdAt);
  });
});
