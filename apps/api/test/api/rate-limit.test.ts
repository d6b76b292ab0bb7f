import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, serviceWithTenant, call, bearer, expectErrorShape, type TenantKeys } from '../helpers/api-client.js';
import type { TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;

beforeAll(async () => ({ svc, api, t } = await serviceWithTenant()));
afterAll(() => svc?.close());

/** Puts the shared clock a few seconds into a fresh minute so a burst cannot straddle two buckets. */
async function startOfMinute() {
  const { rows } = await (
    await import('kysely')
  ).sql<{ s: number }>`select extract(epoch from ${svc.clock.now()})::float8 as s`.execute(svc.deps.db);
  const s = rows[0]!.s;
  svc.clock.advance(60 - (s % 60) + 1);
}

describe('per-IP limit: 100 per clock minute over every rate-limited route, before authentication', () => {
  it('counts init, result, upload and unauthenticated requests together; the 429 carries retry_after = Retry-After', async () => {
    await startOfMinute();
    const ip = { 'x-test-client-ip': '203.0.113.50' };
    const init = await api.init(t.keys.publishable, {}, ip);
    expect(init.status).toBe(200);
    let n = 1;
    for (; n < 40; n++)
      expect(
        (await call(svc.url, 'GET', `/v1/verify/${init.body.verificationId}`, { headers: { ...bearer(t.keys.secret), ...ip } })).status,
      ).toBe(200);
    for (; n < 70; n++)
      expect((await call(svc.url, 'PUT', `/v1/verify/upload/${init.body.verificationId}/doc-front`, { headers: ip })).status).toBe(400);
    for (; n < 100; n++) expect((await call(svc.url, 'POST', '/v1/verify/init', { headers: ip, json: {} })).status).toBe(401);
    const limited = await call(svc.url, 'POST', '/v1/verify/init', { headers: { ...bearer('qv_pub_' + 'x'.repeat(30)), ...ip }, json: {} });
    expectErrorShape(limited, 429, 'rate_limited');
    const retry = limited.body.detail.retry_after;
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(limited.headers.get('retry-after')).toBe(String(retry));
    // Not attributable to a tenant, and checked before the (invalid) key: still 429.
    expectErrorShape(
      await call(svc.url, 'PUT', `/v1/verify/upload/${init.body.verificationId}/doc-front`, { headers: ip }),
      429,
      'rate_limited',
    );
    // Another address is unaffected; /health and preflights are never limited.
    expect((await api.init(t.keys.publishable, {}, { 'x-test-client-ip': '203.0.113.51' })).status).toBe(200);
    expect((await call(svc.url, 'GET', '/health', { headers: ip })).status).toBe(200);
    // The bucket resets at the next clock minute.
    svc.clock.advance(retry);
    expect((await api.init(t.keys.publishable, {}, ip)).status).toBe(200);
  });
});

describe('per-tenant limits, each route its own counter', () => {
  it('init: 60 per minute', async () => {
    await startOfMinute();
    const tenant = await api.tenant();
    for (let i = 0; i < 60; i++) expect((await api.init(tenant.keys.publishable)).status).toBe(200);
    const r = await api.init(tenant.keys.secret);
    expectErrorShape(r, 429, 'rate_limited');
    expect(r.headers.get('retry-after')).toBe(String(r.body.detail.retry_after));
    // Other counters of the same tenant are untouched.
    expect((await api.result(tenant.keys.secret, 'vf_AAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    // Another tenant is untouched.
    expect((await api.init(t.keys.publishable)).status).toBe(200);
    svc.clock.advance(61);
    expect((await api.init(tenant.keys.publishable)).status).toBe(200);
  });

  it('submit: 30 per minute', async () => {
    await startOfMinute();
    const tenant = await api.tenant();
    for (let i = 0; i < 30; i++)
      expect((await call(svc.url, 'POST', '/v1/verify/submit', { headers: bearer(tenant.keys.secret), json: {} })).status).toBe(400);
    expectErrorShape(
      await call(svc.url, 'POST', '/v1/verify/submit', { headers: bearer(tenant.keys.secret), json: {} }),
      429,
      'rate_limited',
    );
    expect((await api.init(tenant.keys.publishable)).status).toBe(200);
  });

  it('result: 600 per minute', async () => {
    await startOfMinute();
    const tenant = await api.tenant();
    const id = (await api.init(tenant.keys.publishable)).body.verificationId;
    for (let i = 0; i < 600; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => api.result(tenant.keys.secret, id)));
      for (const r of batch) expect(r.status).toBe(200);
    }
    expectErrorShape(await api.result(tenant.keys.secret, id), 429, 'rate_limited');
  });
});

describe('rate-limit store', () => {
  it('prunes buckets older than the previous minute', async () => {
    await svc.deps.limiter.hit('test:prune');
    svc.clock.advance(180);
    expect(await svc.deps.limiter.prune()).toBeGreaterThan(0);
    const left = await svc.deps.db.selectFrom('rate_limit_buckets').select('key').where('key', '=', 'test:prune').execute();
    expect(left).toEqual([]);
  });
});
