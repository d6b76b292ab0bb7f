import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/api-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.close());

const get = (path: string, acceptEncoding: string) =>
  fetch(`${svc.url}${path}`, { headers: { 'Accept-Encoding': acceptEncoding } }).then(async (r) => ({
    status: r.status,
    encoding: r.headers.get('content-encoding'),
    vary: r.headers.get('vary'),
    // fetch decodes on its own; read the raw length from what was sent instead
    body: Buffer.from(await r.arrayBuffer()),
  }));

describe('response compression (decisions.md: Brotli or gzip over 1 kB)', () => {
  it('serves the widget with Brotli when accepted, else gzip, else plain, and the bytes are the same', async () => {
    const br = await get('/widget/service-widget.js', 'br, gzip');
    const gz = await get('/widget/service-widget.js', 'gzip');
    const plain = await get('/widget/service-widget.js', 'identity');
    expect(br.status).toBe(200);
    expect(br.encoding).toBe('br');
    expect(gz.encoding).toBe('gzip');
    expect(plain.encoding).toBeNull();
    expect(br.vary?.toLowerCase()).toContain('accept-encoding');
    expect(br.body.equals(plain.body)).toBe(true);
    expect(gz.body.equals(plain.body)).toBe(true);
  });

  it('sends far fewer bytes on the wire for the widget', async () => {
    const { request } = await import('node:http');
    const raw = (enc: string) =>
      new Promise<Buffer>((resolve, reject) => {
        const req = request(`${svc.url}/widget/service-widget.js`, { headers: { 'Accept-Encoding': enc } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        });
        req.on('error', reject);
        req.end();
      });
    const [brWire, plainWire] = await Promise.all([raw('br'), raw('identity')]);
    expect(brWire.length).toBeLessThan(plainWire.length / 2);
    expect(zlib.brotliDecompressSync(brWire).equals(plainWire)).toBe(true);
  });

  it('leaves small JSON bodies (under 1 kB) alone', async () => {
    const api = new Api(svc.url);
    const t = await api.tenant(1);
    const r = await fetch(`${svc.url}/v1/verify/init`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.keys.publishableTest}`, 'Content-Type': 'application/json', 'Accept-Encoding': 'br, gzip' },
      body: '{}',
    });
    expect(r.status).toBe(200);
    // The init body's size decides: compressed with Brotli above 1 kB, sent as is at or below.
    const size = Buffer.byteLength(await r.text());
    expect(r.headers.get('content-encoding')).toBe(size > 1024 ? 'br' : null);
    const health = await fetch(`${svc.url}/health`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(health.headers.get('content-encoding')).toBeNull();
  });
});
