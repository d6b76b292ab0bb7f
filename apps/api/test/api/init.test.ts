import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, serviceWithTenant, expectErrorShape, type TenantKeys } from '../helpers/api-client.js';
import type { TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;

beforeAll(async () => ({ svc, api, t } = await serviceWithTenant()));
afterAll(() => svc?.close());

describe('POST /v1/verify/init', () => {
  it('returns the id, three slots sharing one 192-bit token, and expiresAt in integer seconds', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await api.init(t.keys.publishable, {});
    expect(r.status).toBe(200);
    expect(r.body.verificationId).toMatch(/^vf_[A-Za-z0-9]{16,24}$/);
    expect(r.body.requestId).toBe(r.headers.get('x-request-id'));
    expect(Number.isInteger(r.body.expiresAt)).toBe(true);
    expect(r.body.expiresAt - before).toBeGreaterThanOrEqual(899);
    expect(r.body.expiresAt - before).toBeLessThanOrEqual(901);
    expect(r.body.liveness).toBeUndefined();
    const roles = { docFront: 'doc-front', docBack: 'doc-back', selfie: 'selfie' } as const;
    const tokens = new Set<string>();
    for (const [slot, role] of Object.entries(roles)) {
      const s = r.body.uploads[slot];
      expect(s.url).toBe(`${svc.url}/v1/verify/upload/${r.body.verificationId}/${role}`);
      expect(s.key).toBe(`verif/${t.tenantId}/${r.body.verificationId}/${role}.jpg`);
      expect(s.method).toBe('PUT');
      expect(s.headers['Content-Type']).toBe('image/jpeg');
      tokens.add(s.headers['X-Service-Upload-Token']);
    }
    expect(tokens.size).toBe(1);
    const token = [...tokens][0]!;
    expect(Buffer.from(token, 'base64url').length).toBe(24);
  });

  it('works with a secret key too, and ids are unique', async () => {
    const a = await api.init(t.keys.secret, {});
    const b = await api.init(t.keys.secret, {});
    expect(a.status).toBe(200);
    expect(a.body.verificationId).not.toBe(b.body.verificationId);
  });

  it('drops unknown keys and accepts every valid field', async () => {
    const r = await api.init(t.keys.publishable, {
      tenantId: 'tn_other',
      callbackUrl: 'https://evil.example',
      metadata: { a: 1 },
      userRef: 'u'.repeat(128),
      country: 'ES',
      documentType: 'passport',
      submittedFullName: 'n'.repeat(255),
      activeLiveness: false,
    });
    expect(r.status).toBe(200);
    expect(r.body.uploads.docFront.key).toContain(`verif/${t.tenantId}/`);
  });

  it.each([
    ['userRef', { userRef: 'u'.repeat(129) }],
    ['userRef', { userRef: '' }],
    ['submittedFullName', { submittedFullName: 'n'.repeat(256) }],
    ['documentType', { documentType: 'visa' }],
    ['country', { country: 'es' }],
    ['country', { country: 'ESP' }],
    ['activeLiveness', { activeLiveness: 'yes' }],
    ['userRef', { userRef: 42 }],
  ])('rejects a bad %s with detail.fieldErrors', async (field, body) => {
    const r = await api.init(t.keys.publishable, body);
    expectErrorShape(r, 400, 'invalid_body');
    expect(Object.keys(r.body.detail.fieldErrors)).toEqual([field]);
    expect(r.body.detail.fieldErrors[field].length).toBeGreaterThan(0);
  });

  it('rejects a body that is not a JSON object', async () => {
    for (const raw of ['not json', '[1,2]', '"x"']) {
      const r = await fetch(`${svc.url}/v1/verify/init`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.keys.publishable}`, 'Content-Type': 'application/json', 'x-test-client-ip': '203.0.113.9' },
        body: raw,
      });
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error).toBe('invalid_body');
    }
  });

  it('accepts an empty body as {}', async () => {
    const r = await fetch(`${svc.url}/v1/verify/init`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.keys.publishable}`, 'x-test-client-ip': '203.0.113.10' },
    });
    expect(r.status).toBe(200);
  });

  it('returns the liveness block only when asked', async () => {
    const r = await api.init(t.keys.publishable, { activeLiveness: true });
    expect(r.status).toBe(200);
    expect(r.body.liveness).toMatchObject({
      challengeUrl: `${svc.url}/v1/verify/challenge/${r.body.verificationId}/next`,
      steps: 4,
      burst: 4,
      anchor: { key: `verif/${t.tenantId}/${r.body.verificationId}/liveness-anchor.jpg`, method: 'PUT' },
    });
  });
});

describe('routing', () => {
  it('GET /health is 200 without auth', async () => {
    const r = await fetch(`${svc.url}/health`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.status).toBe('ok');
    expect(body.requestId).toBe(r.headers.get('x-request-id'));
  });

  it.each([
    ['GET', '/v1/verifications'],
    ['GET', '/v1/verifications/vf_abcdefghijklmnop'],
    ['POST', '/v1/verify/upload/vf_x/doc-front'],
    ['DELETE', '/v1/verify/init'],
    ['GET', '/'],
  ])('%s %s is 404 not_found', async (method, path) => {
    const r = await fetch(`${svc.url}${path}`, { method });
    expect(r.status).toBe(404);
    const body = (await r.json()) as any;
    expect(body.error).toBe('not_found');
    expect(body.requestId).toBe(r.headers.get('x-request-id'));
  });
});

describe('GET /widget/service-widget.js', () => {
  it('serves the built widget as a cacheable, cross-origin ES module', async () => {
    const r = await fetch(`${svc.url}/widget/service-widget.js`, { headers: { Origin: 'https://shop.example.com' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    const etag = r.headers.get('etag')!;
    expect((await r.text()).length).toBeGreaterThan(10_000);
    const again = await fetch(`${svc.url}/widget/service-widget.js`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });
});
