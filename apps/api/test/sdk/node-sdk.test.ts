import {
  ApiServerError,
  AuthenticationError,
  ConnectionError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServiceClient,
  ServiceError,
  WebhookVerificationError,
  type CallInfo,
} from '@service/node';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, fakeJpeg, type TenantKeys } from '../helpers/api-client.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

const SECRET = 'sdk-receiver-secret-0123456789abcdef';
let svc: TestService;
let api: Api;
let t: TenantKeys;
let receiver: HttpsReceiver;

beforeAll(async () => {
  receiver = await new HttpsReceiver().start();
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  api = new Api(svc.url);
  t = await api.tenant(20);
  const r = await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { webhook: { url: receiver.url('/sdk-hook'), secret: SECRET } });
  expect(r.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await svc?.close();
  await receiver?.stop();
});

/** A real verification through the SDK only, in test mode. */
async function verifyWithSdk(client: ServiceClient, name = 'Test Approve') {
  const init = await client.verifications.init({ submittedFullName: name, userRef: 'sdk-user' });
  await client.verifications.upload(init.uploads.docFront, fakeJpeg(), { captureSource: 'camera' });
  await client.verifications.upload(init.uploads.selfie, fakeJpeg(), { captureSource: 'camera' });
  const submitted = await client.verifications.submit({
    verificationId: init.verificationId,
    keys: { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key },
  });
  return { init, submitted };
}

async function rejected(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ServiceError);
  const err = e as ServiceError;
  expect(err.requestId).toMatch(/\S/);
  return err;
}

describe('@service/node against the real API', () => {
  it('completes a test-mode verification: init, upload, submit, waitForVerdict; every call has its X-Request-Id', async () => {
    const client = new ServiceClient({ apiKey: t.keys.secretTest, baseUrl: `${svc.url}/` });
    const calls: CallInfo[] = [];
    client.onCall = (c) => calls.push(c);
    const { init, submitted } = await verifyWithSdk(client);
    expect(submitted.status).toMatch(/queued|processing|completed/);
    const record = await client.verifications.waitForVerdict(init.verificationId, { timeoutMs: 20_000, intervalMs: 100 });
    expect(record).toMatchObject({ verificationId: init.verificationId, status: 'completed', verdict: 'approved', mode: 'test' });
    expect(calls.length).toBeGreaterThanOrEqual(5);
    expect(calls.every((c) => typeof c.requestId === 'string' && c.requestId.length > 0)).toBe(true);
    expect(client.lastCall!.requestId).toBe(record.requestId);
  }, 30_000);

  it('makes, follows and cancels a phone handoff link with the verification upload token', async () => {
    const client = new ServiceClient({ apiKey: t.keys.secretTest, baseUrl: svc.url });
    const init = await client.verifications.init({ submittedFullName: 'Test Approve' });
    const link = await client.verifications.createHandoff(init, { documentBack: true, locale: 'de' });
    expect(link.handoffUrl).toMatch(/\/continue\/[A-Za-z0-9_-]{22,}$/);
    expect(await client.verifications.handoffStatus(init)).toMatchObject({ state: 'waiting', verificationId: init.verificationId });
    expect((await client.verifications.cancelHandoff(init)).state).toBe('expired');
    expect((await client.verifications.handoffStatus(init)).state).toBe('expired');
    const forged = {
      ...init,
      uploads: {
        ...init.uploads,
        docFront: { ...init.uploads.docFront, headers: { ...init.uploads.docFront.headers, 'X-Service-Upload-Token': 'nope' } },
      },
    };
    await expect(client.verifications.handoffStatus(forged)).rejects.toMatchObject({
      code: 'invalid_body',
      detail: { reason: 'invalid_upload_token' },
    });
  });

  it('verifies the real webhook delivery of that kind of verification (secret as a rotation array)', async () => {
    const client = new ServiceClient({ apiKey: t.keys.secretTest, baseUrl: svc.url });
    const { init } = await verifyWithSdk(client, 'Test Reject');
    const deadline = Date.now() + 20_000;
    let delivery;
    while (!(delivery = receiver.requests.find((r) => r.body.includes(init.verificationId))) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(delivery).toBeTruthy();
    const header = delivery!.headers['service-signature'] as string;
    const event = client.webhooks.verify(delivery!.body, header, ['old-secret-that-was-rotated-out-000', SECRET]);
    expect(event).toMatchObject({ type: 'verification.rejected', verificationId: init.verificationId, verdict: 'rejected', mode: 'test' });
    const wrong = (() => {
      try {
        client.webhooks.verify(delivery!.body, header, 'another-secret-0123456789abcdef');
      } catch (e) {
        return e;
      }
    })();
    expect(wrong).toBeInstanceOf(WebhookVerificationError);
    expect((wrong as WebhookVerificationError).code).toBe('signature_mismatch');
    expect(() => client.webhooks.verify(delivery!.body, header, SECRET, { toleranceSeconds: 300, now: Date.now() / 1000 + 3600 })).toThrow(
      /from now/,
    );
  }, 30_000);

  it('raises a typed error for each contract error a server-side caller can meet', async () => {
    const client = new ServiceClient({ apiKey: t.keys.secretTest, baseUrl: svc.url });
    const init = await client.verifications.init({});

    const invalid = await rejected(
      client.verifications.submit({ verificationId: init.verificationId, keys: { docFront: 'x', selfie: 'y' } }),
    );
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ code: 'invalid_body', status: 400, detail: { reason: 'doc_front_key_mismatch' } });

    const badKey = await rejected(new ServiceClient({ apiKey: 'qv_sect_unknownunknownunknown', baseUrl: svc.url }).verifications.init());
    expect(badKey).toBeInstanceOf(AuthenticationError);
    expect(badKey).toMatchObject({ code: 'invalid_api_key', status: 401 });

    const pub = await rejected(
      new ServiceClient({ apiKey: t.keys.publishableTest, baseUrl: svc.url }).verifications.retrieve(init.verificationId),
    );
    expect(pub).toBeInstanceOf(AuthenticationError);
    expect(pub.code).toBe('secret_key_required');

    const redacted = await client.verifications.redact(init.verificationId);
    expect(redacted).toMatchObject({ verificationId: init.verificationId, redactedAt: expect.any(String) });
    expect((await client.verifications.retrieve(init.verificationId)).redactedAt).toBe(redacted.redactedAt);
    expect(await rejected(client.verifications.redact('vf_0000000000000000'))).toBeInstanceOf(NotFoundError);

    const missing = await rejected(client.verifications.retrieve('vf_0000000000000000'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: 'verification_not_found', status: 404 });

    const poor = await api.tenant(0);
    const credits = await rejected(new ServiceClient({ apiKey: poor.keys.secretTest, baseUrl: svc.url }).verifications.init());
    expect(credits).toBeInstanceOf(InsufficientCreditsError);
    expect(credits.status).toBe(402);

    const key = await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/keys`, {
      family: 'secret',
      mode: 'test',
      allowedOrigins: ['shop.example.com'],
    });
    const withOrigin: typeof fetch = (url, init) =>
      fetch(url, { ...init, headers: { ...(init?.headers as object), Origin: 'https://evil.example.net' } });
    const origin = await rejected(new ServiceClient({ apiKey: key.body.key, baseUrl: svc.url, fetch: withOrigin }).verifications.init());
    expect(origin).toBeInstanceOf(PermissionError);
    expect(origin.code).toBe('origin_not_allowed');
  }, 30_000);

  it('times out and honours an AbortSignal with a ConnectionError', async () => {
    const hang = http.createServer(() => undefined);
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
    try {
      const client = new ServiceClient({ apiKey: t.keys.secretTest, baseUrl: base, timeoutMs: 300 });
      await expect(client.verifications.init()).rejects.toThrow(ConnectionError);
      await expect(client.verifications.init()).rejects.toThrow(/timed out/);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      await expect(client.verifications.init({}, { signal: ac.signal, timeoutMs: 10_000 })).rejects.toThrow(/aborted by the caller/);
    } finally {
      hang.closeAllConnections();
      hang.close();
    }
  });
});

/**
 * A fault-injecting proxy in front of the real API: the first `faults` requests get the contract
 * error given, the rest are forwarded. It records when each request arrived, so the client's waits
 * are measured on the wire.
 */
async function faultProxy(faults: { status: number; error: string; retryAfter?: number }[]) {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    arrivals.push(Date.now());
    const fault = faults.shift();
    if (fault) {
      res.writeHead(fault.status, {
        'Content-Type': 'application/json',
        'X-Request-Id': `req_injected_${arrivals.length}`,
        ...(fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {}),
      });
      res.end(
        JSON.stringify({
          error: fault.error,
          message: 'injected',
          requestId: `req_injected_${arrivals.length}`,
          ...(fault.retryAfter !== undefined ? { detail: { retry_after: fault.retryAfter } } : {}),
        }),
      );
      req.resume();
      return;
    }
    const target = new URL(req.url!, svc.url);
    const up = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (upRes) => {
      res.writeHead(upRes.statusCode!, upRes.headers);
      upRes.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, close: () => server.close() };
}

describe('@service/node retries', () => {
  it('retries a 429 after Retry-After and a 503 with backoff, then succeeds; the waits are measured', async () => {
    const proxy = await faultProxy([
      { status: 429, error: 'rate_limited', retryAfter: 1 },
      { status: 503, error: 'backend_unavailable' },
    ]);
    try {
      const client = new ServiceClient({ apiKey: t.keys.secretTest, baseUrl: proxy.base, retryBaseDelayMs: 300 });
      const init = await client.verifications.init({});
      expect(init.verificationId).toMatch(/^vf_/);
      expect(proxy.arrivals).toHaveLength(3);
      const waits = [proxy.arrivals[1]! - proxy.arrivals[0]!, proxy.arrivals[2]! - proxy.arrivals[1]!];
      expect(waits[0]).toBeGreaterThanOrEqual(1000); // Retry-After: 1
      expect(waits[1]).toBeGreaterThanOrEqual(600); // second attempt's backoff: 300 ms doubled
      expect(client.lastCall).toMatchObject({ attempts: 3, status: 200 });
      expect(client.lastCall!.retryDelaysMs[0]).toBe(1000);
    } finally {
      proxy.close();
    }
  }, 20_000);

  it('gives up after maxRetries with the typed error, and never retries a non-retryable code', async () => {
    const proxy = await faultProxy([
      { status: 500, error: 'internal_error' },
      { status: 500, error: 'internal_error' },
      { status: 500, error: 'internal_error' },
    ]);
    try {
      const client = new ServiceClient({ apiKey: t.keys.secretTest, baseUrl: proxy.base, retryBaseDelayMs: 50, maxRetries: 2 });
      const err = await rejected(client.verifications.init({}));
      expect(err).toBeInstanceOf(ApiServerError);
      expect(err).toMatchObject({ code: 'internal_error', status: 500, requestId: 'req_injected_3' });
      expect(proxy.arrivals).toHaveLength(3);
    } finally {
      proxy.close();
    }
    const limited = await faultProxy([{ status: 429, error: 'rate_limited', retryAfter: 120 }]);
    try {
      const client = new ServiceClient({ apiKey: t.keys.secretTest, baseUrl: limited.base, maxRetryDelayMs: 5_000 });
      const err = await rejected(client.verifications.init({}));
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).retryAfterSeconds).toBe(120);
      expect(limited.arrivals).toHaveLength(1); // a wait beyond maxRetryDelayMs fails at once
    } finally {
      limited.close();
    }
    const client = new ServiceClient({ apiKey: 'qv_sect_unknownunknownunknown', baseUrl: svc.url });
    await rejected(client.verifications.init());
    expect(client.lastCall!.attempts).toBe(1);
  }, 20_000);
});
