import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyWebhook, type WebhookVerificationError } from '@service/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, type TenantKeys } from '../helpers/api-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

// Webhooks during development (decisions.md "Packages and developer experience"): with
// WEBHOOK_ALLOW_PRIVATE_NETWORKS=true a plain http:// receiver on loopback gets real deliveries.
const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples/webhook-receiver.mjs');
const OLD = 'old-secret-0123456789abcdefgh';
const NEW = 'new-secret-0123456789abcdefgh';

let svc: TestService;
let api: Api;
beforeAll(async () => {
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  api = new Api(svc.url);
});
afterAll(() => svc?.close());

async function setWebhook(t: TenantKeys, url: string, secret: string) {
  const r = await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { webhook: { url, secret } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}
async function approveOne(t: TenantKeys) {
  const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
  expect((await api.submit(t.keys.secretTest, init)).status).toBe(202);
  return init.verificationId as string;
}

/** Runs examples/webhook-receiver.mjs as a developer would, and collects what it prints. */
async function startExampleReceiver(secret: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [EXAMPLE], {
    env: { ...process.env, SERVICE_WEBHOOK_SECRET: secret, PORT: '0' },
  });
  const lines: string[] = [];
  let buffer = '';
  child.stdout.on('data', (c) => {
    buffer += c;
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the example receiver did not start')), 10_000);
    const check = setInterval(() => {
      const m = lines.map((l) => /listening on (\S+)/.exec(l)).find(Boolean);
      if (m) {
        clearTimeout(timer);
        clearInterval(check);
        resolve(m[1]!);
      }
    }, 20);
  });
  const waitFor = async (pattern: RegExp, timeoutMs = 15_000) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const hit = lines.find((l) => pattern.test(l));
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`receiver never printed ${pattern}; it printed ${JSON.stringify(lines)}`);
  };
  return { url, lines, waitFor, stop: () => child.kill() };
}

describe('webhooks to a local receiver (development)', () => {
  it('accepts http:// to loopback hosts only, and refuses other http:// URLs', async () => {
    const t = await api.tenant(5);
    for (const url of ['http://127.0.0.1:4000/hook', 'http://localhost:4000/hook', 'http://[::1]:4000/hook']) {
      expect((await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { webhook: { url, secret: OLD } })).status).toBe(200);
    }
    for (const url of ['http://hooks.example.com/in', 'http://10.1.2.3/hook', 'http://192.168.0.2/hook']) {
      const r = await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { webhook: { url, secret: OLD } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_body');
    }
  });

  it('examples/webhook-receiver.mjs gets a real signed delivery, and the operator test event', async () => {
    const receiver = await startExampleReceiver(OLD);
    try {
      const t = await api.tenant(5);
      await setWebhook(t, receiver.url, OLD);
      const id = await approveOne(t);
      expect(await receiver.waitFor(new RegExp(`verification.approved ${id} approved`))).toBeTruthy();

      const test = await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/webhook/test`);
      expect(test.status).toBe(200);
      expect(test.body).toMatchObject({ delivered: true, statusCode: 204 });
      expect(await receiver.waitFor(new RegExp(`webhook.test ${test.body.eventId}`))).toBeTruthy();
    } finally {
      receiver.stop();
    }
  });

  it('the operator test event reports a receiver that rejects the signature', async () => {
    const receiver = await startExampleReceiver(NEW); // knows only another secret
    try {
      const t = await api.tenant(5);
      await setWebhook(t, receiver.url, OLD);
      const test = await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/webhook/test`);
      expect(test.body).toMatchObject({ delivered: false, statusCode: 400 });
      const none = await api.admin('POST', `/admin/v1/tenants/${(await api.tenant(1)).tenantId}/webhook/test`);
      expect(none.status).toBe(404);
    } finally {
      receiver.stop();
    }
  });
});

describe('secret rotation without a failed delivery (docs/webhooks.md)', () => {
  it('receiver accepts old and new, the secret changes, every delivery verifies, then the old is dropped', async () => {
    // A receiver whose accepted secrets the test changes, as a deployment would.
    let accepted: string[] = [OLD];
    const outcomes: { type: string; verificationId?: string; ok: boolean; error?: string }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const event = verifyWebhook({ rawBody: Buffer.concat(chunks), header: req.headers['service-signature'], secret: accepted });
          outcomes.push({ type: event.type, ...('verificationId' in event ? { verificationId: event.verificationId } : {}), ok: true });
          res.writeHead(204).end();
        } catch (err) {
          outcomes.push({ type: '?', ok: false, error: (err as WebhookVerificationError).code });
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const delivered = async (id: string) => {
      const until = Date.now() + 15_000;
      while (Date.now() < until) {
        const hit = outcomes.find((o) => o.verificationId === id);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no delivery for ${id}: ${JSON.stringify(outcomes)}`);
    };
    try {
      const t = await api.tenant(10);
      await setWebhook(t, url, OLD);
      expect((await delivered(await approveOne(t))).ok).toBe(true);

      accepted = [OLD, NEW]; // 1. deploy the receiver with both
      expect((await delivered(await approveOne(t))).ok).toBe(true);
      await setWebhook(t, url, NEW); // 2. change the secret: it replaces the old at once
      expect((await delivered(await approveOne(t))).ok).toBe(true);
      accepted = [NEW]; // 3. drop the old
      expect((await delivered(await approveOne(t))).ok).toBe(true);

      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      // Without step 1 the same change would fail: a delivery signed with NEW against OLD only.
      accepted = [OLD];
      const test = await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/webhook/test`);
      expect(test.body.delivered).toBe(false);
    } finally {
      server.close();
    }
  });
});
