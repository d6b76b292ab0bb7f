import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import type Router from '@koa/router';
import { ADMIN_ROUTES, PUBLIC_ROUTES, openApiPath, type RouteSpec } from '@service/contract/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { call } from '../helpers/api-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let svc: TestService;
const docs: Record<string, any> = {};

beforeAll(async () => {
  svc = await startTestService();
  for (const path of ['/openapi.json', '/admin/openapi.json']) {
    const r = await call(svc.url, 'GET', path);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('x-request-id')).toBeTruthy();
    docs[path] = r.body;
  }
}, 60_000);
afterAll(async () => svc?.close());

/** Every method+path the router serves, in OpenAPI form. */
function routerOperations(): Set<string> {
  const app = createApp(svc.deps);
  const dispatch = app.middleware.find((m) => (m as { router?: Router }).router) as { router: Router } | undefined;
  const ops = new Set<string>();
  for (const layer of dispatch!.router.stack) {
    // The dashboard's own cookie-session API (/dashboard/...) serves its UI, not integrators: not documented here.
    if (String(layer.path).startsWith('/dashboard')) continue;
    for (const method of layer.methods) if (method !== 'HEAD') ops.add(`${method.toLowerCase()} ${openApiPath(String(layer.path))}`);
  }
  return ops;
}

const documented = (doc: any) =>
  new Set(Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`)));

describe('GET /openapi.json and /admin/openapi.json', () => {
  it('are OpenAPI 3.1 documents an independent validator accepts', async () => {
    for (const doc of Object.values(docs)) {
      expect(doc.openapi).toBe('3.1.0');
      await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    }
  });

  it('pass the Redocly linter (recommended rules) without an error', async () => {
    // operation-4xx-response: /health and the documents themselves have no 4xx to declare.
    const config = await createConfig({ extends: ['recommended'], rules: { 'operation-4xx-response': 'off' } });
    for (const [path, doc] of Object.entries(docs)) {
      const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: path, config });
      expect(problems.map((p) => `${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
    }
  });

  it('document exactly the routes the router serves, public and admin apart', () => {
    const served = routerOperations();
    const pub = documented(docs['/openapi.json']);
    const admin = documented(docs['/admin/openapi.json']);
    const both = new Set([...pub, ...admin]);
    expect(
      [...served].filter((op) => !both.has(op)),
      'served but not documented',
    ).toEqual([]);
    expect(
      [...both].filter((op) => !served.has(op)),
      'documented but not served',
    ).toEqual([]);
    // The operator's document: /admin/... and the Prometheus scrape path, behind the same token.
    expect([...admin].every((op) => op.split(' ')[1]!.startsWith('/admin/') || op.split(' ')[1] === '/metrics')).toBe(true);
    expect([...pub].some((op) => op.split(' ')[1]!.startsWith('/admin/'))).toBe(false);
  });

  it('tie every error code and detail.reason to its route as enums, with X-Request-Id and Retry-After', () => {
    const submit = docs['/openapi.json'].paths['/v1/verify/submit'].post;
    const r400 = submit.responses['400'].content['application/json'].schema;
    expect(r400.properties.error.enum).toEqual(['invalid_body']);
    expect(r400.properties.detail.properties.reason.enum).toContain('selfie_not_uploaded');
    expect(r400.properties.detail.properties.reason.enum).not.toContain('not_a_jpeg');
    expect(submit.responses['401'].content['application/json'].schema.properties.error.enum).toEqual([
      'missing_api_key',
      'invalid_api_key',
    ]);
    expect(submit.responses['429'].headers['Retry-After']).toBeTruthy();
    expect(submit.responses['202'].headers['X-Request-Id']).toBeTruthy();
    expect(submit.security).toEqual([{ publishableKey: [] }, { secretKey: [] }]);
    const upload = docs['/openapi.json'].paths['/v1/verify/upload/{verificationId}/{role}'].put;
    expect(upload.security).toEqual([{ uploadToken: [] }]);
    expect(upload.requestBody.content['image/jpeg']).toBeTruthy();
    expect(docs['/openapi.json'].paths['/v1/verify/{id}'].get.security).toEqual([{ secretKey: [] }]);
    expect(docs['/admin/openapi.json'].paths['/admin/v1/tenants'].post.security).toEqual([{ adminToken: [] }]);
  });

  it('carry the webhook events under webhooks, with the signature scheme', () => {
    const webhooks = docs['/openapi.json'].webhooks;
    expect(Object.keys(webhooks).sort()).toEqual(
      [
        'verification.approved',
        'verification.failed',
        'verification.needs_review',
        'verification.reviewed',
        'verification.rejected',
      ].sort(),
    );
    expect(webhooks['verification.approved'].post.security).toEqual([{ webhookSignature: [] }]);
  });

  it('give every JSON body an example that its contract schema accepts', () => {
    const check = (routes: RouteSpec[]) => {
      for (const route of routes) {
        if (route.body && 'schema' in route.body)
          expect(route.body.schema.safeParse(route.body.example).success, route.operationId).toBe(true);
        if ('schema' in route.response) {
          const parsed = route.response.schema.safeParse(route.response.example);
          expect(parsed.success, `${route.operationId}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
        }
      }
    };
    check(PUBLIC_ROUTES);
    check(ADMIN_ROUTES);
  });

  it('are served without auth and outside the rate limits', async () => {
    const results = await Promise.all(
      Array.from({ length: 120 }, () => call(svc.url, 'GET', '/openapi.json', { headers: { 'x-test-client-ip': '203.0.113.9' } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
  });
});
