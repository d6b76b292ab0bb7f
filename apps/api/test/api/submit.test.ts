import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, reason, serviceWithTenant, call, bearer, expectErrorShape, type TenantKeys } from '../helpers/api-client.js';
import type { TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;

beforeAll(async () => ({ svc, api, t } = await serviceWithTenant(100)));
afterAll(() => svc?.close());

const credits = async (tenantId: string) => (await api.admin('GET', `/admin/v1/tenants/${tenantId}`)).body.credits as number;

describe('POST /v1/verify/submit', () => {
  it('accepts with 202 {verificationId, status: queued, requestId}', async () => {
    const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    const r = await api.submit(t.keys.publishableTest, init);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ verificationId: init.verificationId, status: 'queued', requestId: r.headers.get('x-request-id') });
  });

  it.each([
    ['Test Approve', 'approved', []],
    ['test review', 'review', ['test_mode_forced']],
    ['TEST REJECT', 'rejected', ['test_mode_forced']],
  ])('test mode: %s completes %s through the queue', async (name, verdict, reasons) => {
    const init = await api.prepared(t.keys.publishableTest, { submittedFullName: name });
    expect((await api.submit(t.keys.secretTest, init)).status).toBe(202);
    const r = await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed', 'failed']);
    expect(r.body).toMatchObject({ status: 'completed', verdict, mode: 'test', reasons });
    expect(r.body.completedAt).not.toBeNull();
    expect(Object.keys(r.body.scores).sort()).toEqual(['document_ocr', 'face_match', 'image_quality', 'liveness', 'name_match']);
  });

  it('a repeat returns the current status and verdict, never processes or charges twice', { timeout: 90_000 }, async () => {
    const before = await credits(t.tenantId);
    const init = await api.prepared(t.keys.publishable, { submittedFullName: 'Test Approve' });
    const first = await api.submit(t.keys.secret, init);
    expect(first.status).toBe(202);
    const again = await Promise.all([api.submit(t.keys.secret, init), api.submit(t.keys.publishable, init)]);
    for (const r of again) expect(r.status).toBe(202);
    expect(await credits(t.tenantId)).toBe(before - 1);
    // Live mode never forces a verdict from the magic names: the vision pipeline runs, and these
    // random bytes are no readable document.
    const done = await api.waitForStatus(t.keys.secret, init.verificationId, ['completed', 'failed'], 60_000);
    expect(done.body).toMatchObject({ status: 'completed', verdict: 'rejected', reasons: expect.arrayContaining(['document_unreadable']) });
    const late = await api.submit(t.keys.secret, init);
    expect(late.body).toMatchObject({ status: 'completed', verdict: 'rejected' });
    expect(await credits(t.tenantId)).toBe(before - 1);
    const jobs = await svc.deps.db.selectFrom('webhook_events').select('type').where('verification_id', '=', init.verificationId).execute();
    expect(jobs.map((j) => j.type)).toEqual(['verification.rejected']);
  });

  it('a completed repeat carries the verdict', async () => {
    const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Reject' });
    await api.submit(t.keys.secretTest, init);
    await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed']);
    const r = await api.submit(t.keys.secretTest, init);
    expect(r.body).toMatchObject({ status: 'completed', verdict: 'rejected' });
  });

  it('test mode takes no credit', async () => {
    const before = await credits(t.tenantId);
    const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    await api.submit(t.keys.secretTest, init);
    expect(await credits(t.tenantId)).toBe(before);
  });

  it('the last credit is taken once; then the tenant gets 402', async () => {
    const one = await api.tenant(1);
    const init = await api.prepared(one.keys.publishable);
    expect((await api.submit(one.keys.secret, init)).status).toBe(202);
    expect(await credits(one.tenantId)).toBe(0);
    expectErrorShape(await api.submit(one.keys.secret, init), 402, 'insufficient_credits');
  });

  it.each([
    ['docFront', 'doc_front_key_mismatch'],
    ['selfie', 'selfie_key_mismatch'],
    ['docBack', 'doc_back_key_mismatch'],
  ])('keys.%s differing from init: %s', async (slot, why) => {
    const init = await api.prepared(t.keys.publishableTest);
    const keys: Record<string, string> = { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key };
    keys[slot] = `verif/${t.tenantId}/vf_AAAAAAAAAAAAAAAAAAAA/${slot}.jpg`;
    const r = await api.submit(t.keys.secretTest, init, keys);
    expectErrorShape(r, 400, 'invalid_body');
    expect(reason(r)).toBe(why);
  });

  it('missing uploads: doc_front_not_uploaded, selfie_not_uploaded, doc_back_not_uploaded', async () => {
    const init = (await api.init(t.keys.publishableTest)).body;
    const keys = { docFront: init.uploads.docFront.key, selfie: init.uploads.selfie.key };
    expect(reason(await api.submit(t.keys.secretTest, init, keys))).toBe('doc_front_not_uploaded');
    await api.upload(init, 'docFront');
    expect(reason(await api.submit(t.keys.secretTest, init, keys))).toBe('selfie_not_uploaded');
    await api.upload(init, 'selfie');
    expect(reason(await api.submit(t.keys.secretTest, init, { ...keys, docBack: init.uploads.docBack.key }))).toBe('doc_back_not_uploaded');
    await api.upload(init, 'docBack');
    expect((await api.submit(t.keys.secretTest, init, { ...keys, docBack: init.uploads.docBack.key })).status).toBe(202);
  });

  it('a stored object that vanished before check counts as not uploaded', async () => {
    const init = await api.prepared(t.keys.publishableTest);
    await svc.deps.blobs.deletePrefix(`verif/${t.tenantId}/${init.verificationId}`);
    expect(reason(await api.submit(t.keys.secretTest, init))).toBe('doc_front_not_uploaded');
  });

  it('body validation: verificationId pattern and required keys', async () => {
    const r1 = await call(svc.url, 'POST', '/v1/verify/submit', {
      headers: bearer(t.keys.secretTest),
      json: { verificationId: 'abc', keys: { docFront: 'x', selfie: 'y' } },
    });
    expectErrorShape(r1, 400, 'invalid_body');
    expect(r1.body.detail.fieldErrors.verificationId).toBeDefined();
    const r2 = await call(svc.url, 'POST', '/v1/verify/submit', {
      headers: bearer(t.keys.secretTest),
      json: { verificationId: 'vf_AAAAAAAAAAAAAAAAAAAA', keys: { docFront: 'x' } },
    });
    expect(r2.body.detail.fieldErrors['keys.selfie']).toBeDefined();
  });

  it('unknown or expired intent: 404 verification_not_found', async () => {
    const init = await api.prepared(t.keys.publishableTest);
    expectErrorShape(
      await api.submit(t.keys.secretTest, { ...init, verificationId: 'vf_BBBBBBBBBBBBBBBBBBBB' }),
      404,
      'verification_not_found',
    );
    svc.clock.advance(3601);
    expectErrorShape(await api.submit(t.keys.secretTest, init), 404, 'verification_not_found');
    // Results never expire.
    expect((await api.result(t.keys.secretTest, init.verificationId)).status).toBe(200);
    svc.clock.offsetSeconds = 0;
  });

  it('submit after 15 minutes but within the hour is still accepted', async () => {
    const init = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    svc.clock.advance(30 * 60);
    expect((await api.submit(t.keys.secretTest, init)).status).toBe(202);
    svc.clock.offsetSeconds = 0;
  });
});
