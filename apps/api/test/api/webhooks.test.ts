import { verifyWebhook } from '@service/webhooks';
import { webhookEventSchema } from '@service/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Api, type TenantKeys } from '../helpers/api-client.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';
import { FAILING_PIPELINE, startTestService, type TestService } from '../helpers/test-service.js';

const SECRET = 'receiver-secret-0123456789abcdef';
let svc: TestService;
let api: Api;
let receiver: HttpsReceiver;

beforeAll(async () => {
  receiver = await new HttpsReceiver().start();
  // Development/test switch: loopback receivers allowed. A short schedule stands in for
  // 5 s, 30 s, 2 min, 10 min so retries are observable; the contract schedule is tested below.
  // Live verifications here meet a pipeline that fails outright, to produce `verification.failed`.
  svc = await startTestService(
    { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    {
      delivery: { retryDelaysSeconds: [1, 1, 1, 1], timeoutMs: 1500 },
      pipeline: FAILING_PIPELINE,
    },
  );
  api = new Api(svc.url);
});
afterAll(async () => {
  await svc?.close();
  await receiver?.stop();
});
beforeEach(() => {
  receiver.requests.length = 0;
  receiver.responder = () => ({ status: 200 });
});

async function tenantWithWebhook(path = '/hook'): Promise<TenantKeys> {
  const t = await api.tenant(20);
  const r = await api.admin('PATCH', `/admin/v1/tenants/${t.tenantId}`, { webhook: { url: receiver.url(path), secret: SECRET } });
  expect(r.status).toBe(200);
  return t;
}

async function completeTest(t: TenantKeys, name: string, extra: object = {}) {
  const init = await api.prepared(t.keys.publishableTest, { submittedFullName: name, ...extra });
  expect((await api.submit(t.keys.secretTest, init)).status).toBe(202);
  return init;
}

const deliveries = async (tenantId: string) =>
  (await api.admin('GET', `/admin/v1/tenants/${tenantId}/webhook-deliveries`)).body.deliveries as any[];
async function waitDelivery(tenantId: string, status: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const d = await deliveries(tenantId);
    if (d[0]?.status === status) return d[0];
    if (Date.now() > until) throw new Error(`delivery is ${JSON.stringify(d[0])}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('signed delivery', () => {
  it('POSTs the event with Content-Type, a valid Service-Signature, Service-Event and Service-Event-Id', async () => {
    const t = await tenantWithWebhook();
    const init = await completeTest(t, 'Test Approve', { userRef: 'cust-42' });
    const [req] = await receiver.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/hook');
    expect(req!.headers['content-type']).toBe('application/json');
    const sig = req!.headers['service-signature'] as string;
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(Math.abs(Number(/t=(\d+)/.exec(sig)![1]) - Date.now() / 1000)).toBeLessThan(10);
    const event = verifyWebhook<any>({ rawBody: req!.body, signatureHeader: sig, secret: SECRET });
    expect(webhookEventSchema.parse(event)).toBeTruthy();
    expect(event).toMatchObject({
      type: 'verification.approved',
      verdict: 'approved',
      verificationId: init.verificationId,
      mode: 'test',
      userRef: 'cust-42',
    });
    expect(event.id).toMatch(/^evt_[0-9a-f]+$/);
    expect(event).not.toHaveProperty('status');
    expect(event).not.toHaveProperty('event');
    expect(Object.keys(event.scores).sort()).toEqual(['document_ocr', 'face_match', 'image_quality', 'liveness', 'name_match']);
    expect(Object.keys(event.fieldsExtracted).sort()).toEqual(['dateOfBirth', 'documentNumber', 'expiryDate', 'fullName', 'nationality']);
    expect(req!.headers['service-event']).toBe(event.type);
    expect(req!.headers['service-event-id']).toBe(event.id);
    expect(() => verifyWebhook({ rawBody: req!.body, signatureHeader: sig, secret: 'another-secret-0123456789abc' })).toThrow(
      /No v1 signature/,
    );
    const d = await waitDelivery(t.tenantId, 'delivered');
    expect(d).toMatchObject({ eventId: event.id, type: 'verification.approved', attempts: 1, lastStatusCode: 200, nextAttemptAt: null });
    expect(d.attemptLog[0].latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('omits userRef when none was given; each verdict has its type', async () => {
    const t = await tenantWithWebhook();
    await completeTest(t, 'Test Reject');
    await completeTest(t, 'Test Review');
    const reqs = await receiver.waitFor(2);
    const events = reqs.map((r) => JSON.parse(r.body));
    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    expect(byType['verification.rejected']).toMatchObject({ verdict: 'rejected' });
    expect(byType['verification.needs_review']).toMatchObject({ verdict: 'review' });
    for (const e of events) expect(e).not.toHaveProperty('userRef');
  });

  it('sends verification.reviewed with the decision, and verification.failed with a null verdict', async () => {
    const t = await tenantWithWebhook();
    const review = await completeTest(t, 'Test Review');
    await receiver.waitFor(1);
    await api.waitForStatus(t.keys.secretTest, review.verificationId, ['completed']);
    expect((await api.admin('POST', `/admin/v1/verifications/${review.verificationId}/review`, { verdict: 'approved' })).status).toBe(200);
    const live = await api.prepared(t.keys.publishable, { userRef: 'u-1' });
    await api.submit(t.keys.secret, live);
    const reqs = await receiver.waitFor(3);
    const events = reqs.map((r) => JSON.parse(r.body));
    expect(events.find((e) => e.type === 'verification.reviewed')).toMatchObject({
      verdict: 'approved',
      verificationId: review.verificationId,
    });
    expect(events.find((e) => e.type === 'verification.failed')).toMatchObject({
      verdict: null,
      verificationId: live.verificationId,
      mode: 'live',
      userRef: 'u-1',
    });
  });

  it('a tenant without a webhook still records the event (outbox) but sends nothing', async () => {
    const t = await api.tenant(5);
    const init = await completeTest(t, 'Test Approve');
    await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed']);
    const events = await svc.deps.db
      .selectFrom('webhook_events')
      .select('type')
      .where('verification_id', '=', init.verificationId)
      .execute();
    expect(events).toEqual([{ type: 'verification.approved' }]);
    expect(await deliveries(t.tenantId)).toEqual([]);
  });
});

describe('retries and failures', () => {
  it('5xx, 408 and 429 are retried with the same event id until a 2xx', async () => {
    const t = await tenantWithWebhook();
    const codes = [503, 408, 429];
    receiver.responder = (n) => ({ status: codes[n] ?? 204 });
    await completeTest(t, 'Test Approve');
    const reqs = await receiver.waitFor(4, 20_000);
    const ids = new Set(reqs.map((r) => r.headers['service-event-id']));
    expect(ids.size).toBe(1);
    expect(new Set(reqs.map((r) => r.body)).size).toBe(1);
    const d = await waitDelivery(t.tenantId, 'delivered');
    expect(d.attempts).toBe(4);
    expect(d.attemptLog.map((a: any) => a.statusCode)).toEqual([503, 408, 429, 204]);
    // Waits follow the schedule (1 s each here).
    for (let i = 1; i < reqs.length; i++) expect(reqs[i]!.at - reqs[i - 1]!.at).toBeGreaterThanOrEqual(900);
  });

  it.each([400, 404, 410, 301])('%i fails at once, and a redirect is not followed', async (status) => {
    const t = await tenantWithWebhook();
    receiver.responder = (n) => (n === 0 ? { status, headers: { Location: receiver.url('/elsewhere') } } : { status: 200 });
    await completeTest(t, 'Test Approve');
    const d = await waitDelivery(t.tenantId, 'failed');
    expect(d).toMatchObject({ attempts: 1, lastStatusCode: status, nextAttemptAt: null });
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
  });

  it('gives up after 5 attempts; requeue sends it again; requeue since a time takes every failed one', async () => {
    const t = await tenantWithWebhook();
    receiver.responder = () => ({ status: 500 });
    await completeTest(t, 'Test Approve');
    await receiver.waitFor(5, 20_000);
    const failed = await waitDelivery(t.tenantId, 'failed');
    expect(failed.attempts).toBe(5);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.requests.length).toBe(5);

    receiver.responder = () => ({ status: 200 });
    const rq = await api.admin('POST', `/admin/v1/webhook-deliveries/${failed.id}/requeue`);
    expect(rq.body).toMatchObject({ id: failed.id, status: 'pending', requeued: true });
    const delivered = await waitDelivery(t.tenantId, 'delivered');
    expect(delivered.attempts).toBe(6);
    expect(receiver.requests[5]!.headers['service-event-id']).toBe(receiver.requests[0]!.headers['service-event-id']);
    // A delivered one is not requeued.
    expect((await api.admin('POST', `/admin/v1/webhook-deliveries/${failed.id}/requeue`)).body.requeued).toBe(false);
    expect((await api.admin('POST', '/admin/v1/webhook-deliveries/whd_nope/requeue')).status).toBe(404);

    receiver.requests.length = 0;
    receiver.responder = () => ({ status: 400 });
    const since = new Date(Date.now() - 1000).toISOString();
    await completeTest(t, 'Test Reject');
    await completeTest(t, 'Test Review');
    await receiver.waitFor(2);
    const until = Date.now() + 10_000;
    while ((await deliveries(t.tenantId)).filter((d) => d.status === 'failed').length < 2 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    receiver.responder = () => ({ status: 200 });
    const bulk = await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/webhook-deliveries/requeue`, { since });
    expect(bulk.body.requeued).toBe(2);
    await receiver.waitFor(4);
    expect((await api.admin('POST', `/admin/v1/tenants/${t.tenantId}/webhook-deliveries/requeue`, { since: 'yesterday' })).status).toBe(
      400,
    );
  });

  it('a receiver that never answers is cut at the timeout and retried', async () => {
    const t = await tenantWithWebhook();
    receiver.responder = (n) => (n === 0 ? 'hang' : { status: 200 });
    await completeTest(t, 'Test Approve');
    const d = await waitDelivery(t.tenantId, 'delivered', 20_000);
    expect(d.attemptLog[0]).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(d.attemptLog[0].latencyMs).toBeGreaterThanOrEqual(1400);
    expect(d.attemptLog[0].latencyMs).toBeLessThan(3000);
  });
});
