import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, call, expectErrorShape, fakeJpeg, type TenantKeys } from '../helpers/api-client.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/test-service.js';

/** GET /metrics (admin token) and METRICS_PORT: what a fleet's operator scrapes. */
let svc: TestService;
let api: Api;
let t: TenantKeys;
beforeAll(async () => {
  svc = await startTestService({ METRICS_PORT: '0' });
  api = new Api(svc.url);
  t = await api.tenant(10);
});
afterAll(() => svc?.close());

const scrape = async () => {
  const r = await fetch(`${svc.url}/metrics`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('text/plain');
  return r.text();
};
/** The value of one sample line, or undefined. */
const sample = (text: string, line: RegExp) => {
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').pop()) : undefined;
};

describe('metrics', () => {
  it('requests by route pattern, jobs, queue depth, verdicts, webhooks and blob store latency; never an id', async () => {
    const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    expect((await api.submit(t.keys.secretTest, init)).status).toBe(202);
    await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed']);
    // The job's duration is recorded when its handler returns, just after the status is written.
    const jobDone = /^service_job_duration_seconds_count\{queue="verification-process",outcome="ok"\}/;
    await expect.poll(async () => sample(await scrape(), jobDone) ?? 0).toBeGreaterThanOrEqual(1);
    const text = await scrape();
    expect(sample(text, /^service_http_requests_total\{method="POST",route="\/v1\/verify\/init",status="200"\}/)).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        /^service_http_request_duration_seconds_count\{method="PUT",route="\/v1\/verify\/upload\/:verificationId\/:role",status="200"\}/,
      ),
    ).toBe(2);
    expect(sample(text, /^service_verifications_finished_total\{outcome="approved",mode="test"\}/)).toBe(1);
    expect(sample(text, /^service_job_duration_seconds_count\{queue="verification-process",outcome="ok"\}/)).toBeGreaterThanOrEqual(1);
    expect(sample(text, /^service_blob_store_duration_seconds_count\{operation="put",outcome="ok"\}/)).toBe(2);
    expect(sample(text, /^service_queue_depth\{queue="verification-process"\}/)).toBe(0);
    expect(text).toContain('service_process_resident_memory_bytes');
    expect(text).toContain('service_webhook_attempts_total');
    // Route patterns only: no verification id, tenant id or key in any label.
    expect(text).not.toContain(init.verificationId);
    expect(text).not.toContain(t.tenantId);
  });

  it('behind the admin token on the API port; on METRICS_PORT without one, and nothing else there', async () => {
    expectErrorShape(await call(svc.url, 'GET', '/metrics'), 401, 'invalid_admin_token');
    expectErrorShape(
      await call(svc.url, 'GET', '/metrics', { headers: { Authorization: `Bearer ${t.keys.secret}` } }),
      401,
      'invalid_admin_token',
    );
    expect(svc.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const own = await fetch(svc.metricsUrl!);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('service_http_requests_total');
    expect((await fetch(svc.metricsUrl!.replace('/metrics', '/v1/verify/init'))).status).toBe(404);
  });

  it('every blob store read is timed', async () => {
    const init = (await api.init(t.keys.publishableTest, {})).body;
    const before = sample(await scrape(), /^service_blob_store_duration_seconds_count\{operation="get",outcome="ok"\}/) ?? 0;
    expect((await api.upload(init, 'selfie', fakeJpeg(3000))).status).toBe(200);
    await svc.deps.blobs.get(init.uploads.selfie.key);
    expect(sample(await scrape(), /^service_blob_store_duration_seconds_count\{operation="get",outcome="ok"\}/)).toBe(before + 1);
  });
});
