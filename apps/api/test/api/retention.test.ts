import { slotKey } from '@service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetention } from '../../src/jobs/retention.js';
import type { VerificationPipeline } from '../../src/pipeline/pipeline.js';
import { Api, call, expectErrorShape, fakeJpeg, type TenantKeys } from '../helpers/api-client.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

/**
 * Retention and erasure (decisions.md "Storage, retention and erasure"), over HTTP on a real
 * service with the database clock moved forward: images deleted 7 days after the final decision
 * (kept while a review is undecided) and 24 h after an unsubmitted intent expired, personal data
 * erased after 90 days, and `POST /v1/verify/:id/redact` at once. The result record stays.
 */
const DAY = 86_400;
// Reads the images back (so a deleted one fails the run) and returns what a document would give.
const pipeline: VerificationPipeline = {
  async run(request, images) {
    if (!images.docFront.length) throw new Error('no image');
    return {
      verdict: request.submittedFullName === 'Rita Review' ? 'review' : 'approved',
      reasons: [],
      scores: { document_ocr: 1, name_match: 1, face_match: 0.9, image_quality: 1, liveness: null },
      fieldsExtracted: {
        fullName: 'ANA MARTINEZ',
        documentNumber: 'X1234567',
        dateOfBirth: '1990-02-28',
        expiryDate: '2031-01-01',
        nationality: 'ESP',
      },
    };
  },
};

let svc: TestService;
let api: Api;
let t: TenantKeys;
beforeAll(async () => {
  svc = await startTestService({}, { pipeline });
  api = new Api(svc.url);
  t = await api.tenant(100);
});
afterAll(() => svc?.close());

async function completed(fullName = 'Ana Martinez') {
  const init = await api.prepared(t.keys.publishable, { submittedFullName: fullName });
  expect((await api.submit(t.keys.secret, init)).status).toBe(202);
  await api.waitForStatus(t.keys.secret, init.verificationId, ['completed'], 30_000);
  return init;
}
const row = (id: string) => svc.deps.db.selectFrom('verifications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const imagesOf = async (init: any) => Promise.all(['docFront', 'selfie'].map((s) => svc.deps.blobs.get(init.uploads[s].key)));
const eventBodies = async (id: string) =>
  (await svc.deps.db.selectFrom('webhook_events').select('body').where('verification_id', '=', id).execute()).map((e) =>
    JSON.parse(e.body),
  );
const redact = (key: string, id: string) =>
  call(svc.url, 'POST', `/v1/verify/${id}/redact`, { headers: { Authorization: `Bearer ${key}` } });

describe('POST /v1/verify/:id/redact', () => {
  it('erases images (data key destroyed) and personal data at once; the result record stays; idempotent', async () => {
    const init = await completed();
    const id = init.verificationId;
    expect((await eventBodies(id))[0].fieldsExtracted.fullName).toBe('ANA MARTINEZ');

    const r = await redact(t.keys.secret, id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ verificationId: id, redactedAt: expect.any(String), requestId: r.headers.get('x-request-id') });
    expect(await imagesOf(init)).toEqual([null, null]);
    expect(await svc.deps.db.selectFrom('blob_data_keys').select('verification_id').where('verification_id', '=', id).execute()).toEqual(
      [],
    );
    const v = await row(id);
    expect(v.submitted_full_name).toBeNull();
    expect(v.fields_extracted).toEqual({ fullName: null, documentNumber: null, dateOfBirth: null, expiryDate: null, nationality: null });
    // The stored event (a delivery still to come) carries the erased fields too.
    expect((await eventBodies(id))[0].fieldsExtracted).toEqual(v.fields_extracted);

    const result = await api.result(t.keys.secret, id);
    expect(result.body).toMatchObject({
      status: 'completed',
      verdict: 'approved',
      redactedAt: r.body.redactedAt,
      scores: { face_match: 0.9 },
    });
    const again = await redact(t.keys.secret, id);
    expect(again.status).toBe(200);
    expect(again.body.redactedAt).toBe(r.body.redactedAt);
  });

  it("a publishable key is refused; another tenant's, another mode's or a malformed id is 404", async () => {
    const init = await api.prepared(t.keys.publishable, {});
    const id = init.verificationId;
    const pub = await redact(t.keys.publishable, id);
    expect(pub.status).toBe(401);
    expect(pub.body.error).toBe('secret_key_required');
    const other = await api.tenant(1);
    expectErrorShape(await redact(other.keys.secret, id), 404, 'verification_not_found');
    expectErrorShape(await redact(t.keys.secretTest, id), 404, 'verification_not_found');
    expectErrorShape(await redact(t.keys.secret, 'vf_nope'), 404, 'verification_not_found');
    expect((await imagesOf(init)).every((b) => b !== null)).toBe(true);
  });

  it('an intent not yet submitted ends with it: no new image, no submit', async () => {
    const init = await api.prepared(t.keys.publishable, { submittedFullName: 'Ana Martinez' });
    expect((await redact(t.keys.secret, init.verificationId)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    expectErrorShape(await api.upload(init, 'docFront', fakeJpeg(3000)), 404, 'verification_not_found');
    expectErrorShape(await api.submit(t.keys.secret, init), 404, 'verification_not_found');
    expect(await svc.deps.blobs.get(slotKey(t.tenantId, init.verificationId, 'doc_front'))).toBeNull();
  });
});

describe('retention', () => {
  it('images: 7 days after the verdict, kept while a review is undecided, 24 h after an unsubmitted intent expired; data: after 90 days', async () => {
    const approved = await completed();
    const review = await completed('Rita Review');
    const unsubmitted = await api.prepared(t.keys.publishable, { submittedFullName: 'Ana Martinez' });
    const ids = [approved, review, unsubmitted].map((i) => i.verificationId);

    svc.clock.advance(6 * DAY);
    await runRetention(svc.deps);
    expect((await imagesOf(approved)).every(Boolean)).toBe(true);
    // Its intent expired 1 h after init: at 6 days it is long over 24 h, so its images are gone already.
    expect(await imagesOf(unsubmitted)).toEqual([null, null]);

    svc.clock.advance(1 * DAY + 3600);
    await runRetention(svc.deps);
    expect(await imagesOf(approved)).toEqual([null, null]);
    expect(await imagesOf(unsubmitted)).toEqual([null, null]);
    expect((await imagesOf(review)).every(Boolean)).toBe(true); // a reviewer still needs them
    expect((await row(ids[0]!)).submitted_full_name).toBe('Ana Martinez'); // personal data: not yet

    svc.clock.advance(84 * DAY);
    await runRetention(svc.deps);
    const erased = await row(ids[0]!);
    expect(erased.submitted_full_name).toBeNull();
    expect(erased.personal_data_erased_at).not.toBeNull();
    expect(erased.fields_extracted).toEqual({
      fullName: null,
      documentNumber: null,
      dateOfBirth: null,
      expiryDate: null,
      nationality: null,
    });
    expect((await row(ids[2]!)).submitted_full_name).toBeNull();
    expect((await row(ids[1]!)).submitted_full_name).toBe('Rita Review'); // undecided review: no final decision yet
    // The result record stays readable, without personal data.
    const result = await api.result(t.keys.secret, ids[0]!);
    expect(result.body).toMatchObject({ status: 'completed', verdict: 'approved', scores: { document_ocr: 1 } });
    expect(result.body.redactedAt).toBeUndefined();
  });

  it('finishes a redaction whose erasure was cut short (the store unreachable at the time)', async () => {
    const init = await completed();
    // What a redact request leaves when its deletes answered 503: marked, images and data still there.
    await svc.deps.db.updateTable('verifications').set({ redacted_at: new Date() }).where('id', '=', init.verificationId).execute();
    await runRetention(svc.deps);
    expect(await imagesOf(init)).toEqual([null, null]);
    expect((await row(init.verificationId)).submitted_full_name).toBeNull();
  });

  it('idempotent and safe with several workers: two runs at once do the work once, a third finds nothing', async () => {
    const init = await completed();
    svc.clock.advance(8 * DAY);
    const runs = await Promise.all([runRetention(svc.deps), runRetention(svc.deps)]);
    expect(runs.every((r) => r.imagesDeleted >= 0)).toBe(true);
    expect(await imagesOf(init)).toEqual([null, null]);
    expect(await runRetention(svc.deps)).toEqual({ imagesDeleted: 0, dataErased: 0 });
  });
});
