import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, bearer, call, fakeJpeg, type TenantKeys } from '../helpers/api-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;
const lines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  svc = await startTestService({}, { logger: pino({ level: 'info' }, sink) });
  api = new Api(svc.url);
  t = await api.tenant();
});
afterAll(() => svc?.close());

describe('request logs', () => {
  it('one structured line per request with requestId, route pattern, status and latency; no keys, tokens, names or images', async () => {
    const name = 'Zoë Secretname';
    const init = await api.init(t.keys.publishableTest, { submittedFullName: name, userRef: 'user-ref-778' });
    const token = init.body.uploads.docFront.headers['X-Service-Upload-Token'];
    const image = fakeJpeg(300);
    await api.upload(init.body, 'docFront', image);
    await api.upload(init.body, 'selfie');
    await api.submit(t.keys.secretTest, init.body);
    await api.result(t.keys.secretTest, init.body.verificationId);
    await call(svc.url, 'POST', '/v1/verify/init', { headers: bearer('qv_pub_' + 'S'.repeat(30)), json: {} });
    // Lines are written after each answer is sent: wait for the six requests' lines.
    await expect.poll(() => lines.filter((l) => (JSON.parse(l) as { msg?: string }).msg === 'request').length).toBeGreaterThanOrEqual(6);

    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    const byRoute = (route: string) => requests.filter((r) => r.route === route);
    expect(byRoute('POST /v1/verify/init').length).toBeGreaterThanOrEqual(2);
    expect(byRoute('PUT /v1/verify/upload/:verificationId/:role').length).toBe(2);
    const first = byRoute('POST /v1/verify/init')[0];
    expect(first).toMatchObject({ method: 'POST', status: 200 });
    expect(first.requestId).toBe(init.body.requestId);
    expect(typeof first.latencyMs).toBe('number');

    const all = lines.join('\n');
    for (const secret of [
      ...Object.values(t.keys),
      token,
      name,
      'Secretname',
      'user-ref-778',
      'qv_pub_SSSS',
      image.toString('base64').slice(0, 40),
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});
