import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { Api, fakeJpeg, type TenantKeys } from '../helpers/api-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

/**
 * The 500 path over HTTP: a fault nobody foresaw inside a real route (here the image store fails
 * with a plain Error, as a full disk or a bug would) answers the interface's Error object,
 * `internal_error` with a fixed message, the request id in body and header, and nothing of the
 * fault itself: no message, no stack, no path. The operator finds it in the log by request id.
 */
const SECRET_DETAIL = 'EACCES: permission denied, open /var/lib/service/blobs/verif/secret-path';
let svc: TestService;
let api: Api;
let t: TenantKeys;
const logLines: Record<string, unknown>[] = [];

const failingStore: BlobStore = {
  put: () => Promise.reject(new Error(SECRET_DETAIL)),
  get: () => Promise.reject(new Error(SECRET_DETAIL)),
  exists: () => Promise.resolve(false),
  deletePrefix: () => Promise.resolve(),
  ready: () => Promise.resolve(true),
};

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  svc = await startTestService({}, { logger: pino({ level: 'info' }, sink), blobs: failingStore });
  api = new Api(svc.url);
  t = await api.tenant(10);
});
afterAll(async () => {
  await svc?.close();
});

describe('an unforeseen fault in a route', () => {
  it('answers 500 internal_error with a fixed message and the request id, leaking nothing of the fault', async () => {
    const init = await api.init(t.keys.publishableTest, {});
    expect(init.status).toBe(200);
    const r = await api.upload(init.body, 'docFront', fakeJpeg());
    expect(r.status).toBe(500);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({ error: 'internal_error', message: 'Internal server error', requestId: expect.stringMatching(/^req_/) });
    expect(r.headers.get('x-request-id')).toBe(r.body.requestId);
    const raw = JSON.stringify(r.body) + [...r.headers.entries()].join(';');
    for (const leak of ['EACCES', 'secret-path', '/var/lib', 'at ', '.ts:', '.js:', 'Error:']) expect(raw).not.toContain(leak);

    // The operator has the cause, under the same request id.
    const logged = logLines.find((l) => l.requestId === r.body.requestId && l.msg === 'unhandled error') as
      { err: { message: string; stack: string } } | undefined;
    expect(logged?.err.message).toBe(SECRET_DETAIL);
    expect(logged?.err.stack).toContain('Error');
    // The service still serves.
    expect((await api.init(t.keys.publishableTest, {})).status).toBe(200);
  });
});
