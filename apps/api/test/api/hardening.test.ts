import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, call } from '../helpers/api-client.js';
import { developmentAdminToken, DEVELOPMENT_FLAG } from '../../src/auth/development-token.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/test-service.js';
import { readJsonObject } from '../../src/http/read-body.js';

let svc: TestService;
let api: Api;
const lines: Record<string, any>[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, any>),
      );
      cb();
    },
  });
  svc = await startTestService(
    {},
    {
      logger: pino({ level: 'info' }, sink),
      extraRoutes: [
        (r) =>
          r.get('/test-page', (ctx) => {
            ctx.type = 'html';
            ctx.body = '<p>hello</p>';
          }),
        // A route that reads its JSON body, then meets a database that refuses connections.
        (r) =>
          r.post('/test-database-refuses', async (ctx) => {
            await readJsonObject(ctx);
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          }),
      ],
    },
  );
  api = new Api(svc.url);
});
afterAll(() => svc?.close());

const raw = (request: string | Buffer, opts: { destroyAfterMs?: number } = {}) =>
  new Promise<string>((resolve) => {
    const { port } = new URL(svc.url);
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    let out = '';
    socket.on('data', (c) => (out += c));
    socket.on('close', () => resolve(out));
    socket.on('error', () => resolve(out));
    if (opts.destroyAfterMs !== undefined) setTimeout(() => socket.destroy(), opts.destroyAfterMs);
  });

describe('response headers', () => {
  it('nosniff and no-referrer on every response, errors included', async () => {
    const t = await api.tenant(1);
    for (const r of [
      await call(svc.url, 'GET', '/health'),
      await call(svc.url, 'GET', '/no/such/route'),
      await api.init('qv_pub_' + 'x'.repeat(20)),
      await api.init(t.keys.publishable, { userRef: 7 }),
    ]) {
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('an HTML page carries a CSP with frame-ancestors', async () => {
    const r = await call(svc.url, 'GET', '/test-page');
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });
});

describe('a database that goes away after the body was read', () => {
  // Node destroys a request stream once its body is read: that is not the client going away. Taken
  // for an abort, the error was never answered and Koa sent a plain-text "404 Not Found".
  it('answers 503 backend_unavailable in JSON, not a plain 404', async () => {
    const r = await call(svc.url, 'POST', '/test-database-refuses', { json: { any: 'thing' } });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'backend_unavailable', detail: { retry_after: expect.any(Number) } });
    expect(r.headers.get('retry-after')).not.toBeNull();
  });
});

describe('CORS', () => {
  it('the operator API answers no preflight and sends no CORS headers; the public API still does', async () => {
    const pre = (path: string) =>
      call(svc.url, 'OPTIONS', path, {
        headers: {
          Origin: 'https://evil.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization',
        },
      });
    const admin = await pre('/admin/v1/tenants');
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
    expect(admin.status).toBe(404);
    const get = await call(svc.url, 'GET', '/admin/v1/tenants/ten_x', {
      headers: { Origin: 'https://evil.example', Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    const pub = await pre('/v1/verify/init');
    expect(pub.status).toBe(204);
    expect(pub.headers.get('access-control-allow-origin')).toBe('https://evil.example');
  });
});

describe('logs of requests that go wrong on the client side', () => {
  it('a client that aborts an upload is logged as an abort (499), not a 500 error', async () => {
    const t = await api.tenant(1);
    const init = (await api.init(t.keys.publishable)).body;
    const slot = init.uploads.docFront;
    const path = new URL(slot.url).pathname;
    const head =
      `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nX-Service-Upload-Token: ${slot.headers['X-Service-Upload-Token']}\r\n` +
      `X-Service-Capture-Source: camera\r\nContent-Length: 500000\r\n\r\n`;
    await raw(Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(2000, 1)]), { destroyAfterMs: 300 });
    for (let i = 0; i < 100 && !lines.some((l) => l.clientAborted); i++) await new Promise((r) => setTimeout(r, 100));
    const line = lines.find((l) => l.msg === 'request' && l.route === 'PUT /v1/verify/upload/:verificationId/:role' && l.clientAborted);
    expect(line, JSON.stringify(lines.filter((l) => l.msg !== 'request' || l.route?.startsWith('PUT')))).toMatchObject({ status: 499 });
    expect(lines.filter((l) => l.msg === 'unhandled error')).toEqual([]);
  });

  it("a request Node's HTTP parser refuses: a JSON error with a request id and one JSON log line", async () => {
    const out = await raw('GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1.1 400/);
    const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4)) as { error: string; requestId: string };
    expect(body.error).toBe('invalid_body');
    await expect
      .poll(() => lines.find((l) => l.requestId === body.requestId))
      .toMatchObject({ msg: 'malformed HTTP request', status: 400 });
  });
});

describe('operator API without ADMIN_TOKEN', () => {
  it('does not exist (404 not_found), whatever token is sent', async () => {
    const bare = await startTestService({ ADMIN_TOKEN: '' });
    try {
      const r = await call(bare.url, 'POST', '/admin/v1/tenants', {
        headers: { Authorization: 'Bearer anything-at-all-123456' },
        json: { name: 'x' },
      });
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('not_found');
    } finally {
      await bare.close();
    }
  }, 180_000);
});

describe('the operator token of a start', () => {
  it('a production start with ADMIN_TOKEN unset generates none; only --development (npm start) does, reusing the saved one', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-entry-'));
    try {
      expect(developmentAdminToken(undefined, ['node', 'main.js'], dataDir)).toBeUndefined();
      expect(developmentAdminToken('set-by-operator-0123456789', ['node', 'main.js', DEVELOPMENT_FLAG], dataDir)).toBeUndefined();
      expect(developmentAdminToken(undefined, ['node', 'main.js', DEVELOPMENT_FLAG], dataDir)).toMatch(/^adm_[A-Za-z0-9]{40}$/);
      fs.writeFileSync(path.join(dataDir, 'demo-credentials.json'), JSON.stringify({ adminToken: 'adm_saved' }));
      expect(developmentAdminToken(undefined, ['node', 'main.js', DEVELOPMENT_FLAG], dataDir)).toBe('adm_saved');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
