import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN, CLIENT_IP_HEADER, startTestService, type TestService } from './test-service.js';

let ipSeq = 0;

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; json?: unknown; body?: RequestInit['body'] } = {},
): Promise<Res<T>> {
  // Each request from a distinct client address unless the test names one, so the per-IP limit
  // only trips in the tests about it.
  const headers: Record<string, string> = { [CLIENT_IP_HEADER]: `198.51.100.${(ipSeq++ % 250) + 1}-${ipSeq}`, ...opts.headers };
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, duplex: 'half' } as RequestInit);
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A small byte string that passes the JPEG signature and size rules. */
export function fakeJpeg(size = 2048): Buffer {
  const b = randomBytes(size);
  b[0] = 0xff;
  b[1] = 0xd8;
  b[2] = 0xff;
  return b;
}

export interface TenantKeys {
  tenantId: string;
  keys: { publishable: string; secret: string; publishableTest: string; secretTest: string };
}

export class Api {
  ipCounter = 0;
  constructor(readonly base: string) {}

  admin<T = any>(method: string, path: string, json?: unknown) {
    return call<T>(this.base, method, path, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      ...(json !== undefined ? { json } : {}),
    });
  }

  async tenant(credits = 100): Promise<TenantKeys> {
    const r = await this.admin('POST', '/admin/v1/tenants', { name: 'Acme', credits });
    if (r.status !== 201) throw new Error(`tenant creation failed: ${r.status}`);
    return r.body;
  }

  init(key: string, json: unknown = {}, headers: Record<string, string> = {}) {
    return call(this.base, 'POST', '/v1/verify/init', { headers: { ...bearer(key), ...headers }, json });
  }

  upload(init: any, slot: 'docFront' | 'docBack' | 'selfie', bytes: Buffer = fakeJpeg(), headers: Record<string, string> = {}) {
    const s = init.uploads[slot];
    return call(this.base, 'PUT', new URL(s.url).pathname, {
      headers: { ...s.headers, 'X-Service-Capture-Source': 'camera', ...headers },
      body: bytes,
    });
  }

  uploadRole(init: any, role: string, bytes: Buffer = fakeJpeg(), headers: Record<string, string> = {}) {
    return call(this.base, 'PUT', `/v1/verify/upload/${init.verificationId}/${role}`, {
      headers: {
        'X-Service-Upload-Token': init.uploads.selfie.headers['X-Service-Upload-Token'],
        'Content-Type': 'image/jpeg',
        ...headers,
      },
      body: bytes,
    });
  }

  submit(key: string, init: any, keys?: Record<string, string>) {
    return call(this.base, 'POST', '/v1/verify/submit', {
      headers: bearer(key),
      json: { verificationId: init.verificationId, keys: keys ?? { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key } },
    });
  }

  result(key: string, id: string) {
    return call(this.base, 'GET', `/v1/verify/${id}`, { headers: bearer(key) });
  }

  /** init + both uploads, ready to submit. */
  async prepared(pubKey: string, json: unknown = {}) {
    const init = await this.init(pubKey, json);
    if (init.status !== 200) throw new Error(`init failed ${init.status} ${JSON.stringify(init.body)}`);
    for (const slot of ['docFront', 'selfie'] as const) {
      const u = await this.upload(init.body, slot);
      if (u.status !== 200) throw new Error(`upload failed ${u.status} ${JSON.stringify(u.body)}`);
    }
    return init.body;
  }

  async waitForStatus(secretKey: string, id: string, statuses: string[], timeoutMs = 15_000) {
    const start = Date.now();
    for (;;) {
      const r = await this.result(secretKey, id);
      if (statuses.includes(r.body?.status)) return r;
      const waited = Date.now() - start;
      if (waited > timeoutMs) throw new Error(`status still ${r.body?.status} (HTTP ${r.status} ${r.body?.error ?? ''})`);
      // Quick at first; then slow enough to stay under the tenant's 600 polls a minute, whose 429s
      // would hide the status for the rest of the window.
      await new Promise((res) => setTimeout(res, waited < 2000 ? 50 : 250));
    }
  }
}

/** The error's `detail.reason`, or undefined. */
export const reason = (r: { body: any }) => r.body?.detail?.reason;

export function expectErrorShape(r: Res, status: number, error: string) {
  if (r.status !== status || r.body?.error !== error) {
    throw new Error(`expected ${status} ${error}, got ${r.status} ${JSON.stringify(r.body)}`);
  }
  if (typeof r.body.message !== 'string' || r.body.requestId !== r.headers.get('x-request-id')) {
    throw new Error(`bad error object ${JSON.stringify(r.body)}`);
  }
}

/** A started service, a client for it, and one tenant: what most API test files begin with. */
export async function serviceWithTenant(credits = 100): Promise<{ svc: TestService; api: Api; t: TenantKeys }> {
  const svc = await startTestService();
  const api = new Api(svc.url);
  return { svc, api, t: await api.tenant(credits) };
}
