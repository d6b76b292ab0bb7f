import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, reason, serviceWithTenant, call, expectErrorShape, fakeJpeg, type TenantKeys } from '../helpers/api-client.js';
import type { TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;

beforeAll(async () => ({ svc, api, t } = await serviceWithTenant()));
afterAll(() => svc?.close());

const next = (init: any, headers?: Record<string, string>) =>
  call(svc.url, 'GET', `/v1/verify/challenge/${init.verificationId}/next`, {
    headers: headers ?? { 'X-Service-Upload-Token': init.uploads.selfie.headers['X-Service-Upload-Token'] },
  });

async function livenessInit(name = 'Test Approve') {
  return api.prepared(t.keys.publishableTest, { activeLiveness: true, submittedFullName: name });
}

describe('active-liveness challenge', () => {
  it('issues four beacons with the four poses in a random order and random nonces, the same beacon until its frames arrive, then done', async () => {
    const init = await livenessInit();
    expect((await api.uploadRole(init, 'liveness-anchor')).status).toBe(200);
    const nonces = new Set<string>();
    const poses: string[] = [];
    for (let step = 1; step <= 4; step++) {
      const b = await next(init);
      expect(b.status).toBe(200);
      expect(b.body).toMatchObject({ verificationId: init.verificationId, step, totalSteps: 4, burst: 4, done: false });
      expect(['turn_left', 'turn_right', 'look_up', 'look_down']).toContain(b.body.pose);
      expect(b.body.roles).toEqual([1, 2, 3, 4].map((f) => `liveness-${step}-${f}`));
      expect(Number.isInteger(b.body.expiresAt)).toBe(true);
      expect(b.body.requestId).toBe(b.headers.get('x-request-id'));
      nonces.add(b.body.nonce);
      poses.push(b.body.pose);
      // Safe to retry: the same beacon.
      const again = await next(init);
      expect(again.body).toMatchObject({ step, pose: b.body.pose, nonce: b.body.nonce, expiresAt: b.body.expiresAt });
      // A frame of a step whose beacon was not issued yet.
      if (step < 4) expect(reason(await api.uploadRole(init, `liveness-${step + 1}-1`))).toBe('key_mismatch');
      for (const role of b.body.roles)
        expect((await api.uploadRole(init, role, fakeJpeg(), { 'X-Service-Capture-Source': 'camera' })).status).toBe(200);
    }
    expect(nonces.size).toBe(4);
    // One picture cannot serve two steps: no pose is asked twice.
    expect([...poses].sort()).toEqual(['look_down', 'look_up', 'turn_left', 'turn_right']);
    const done = await next(init);
    expect(done.body).toEqual({ verificationId: init.verificationId, done: true, requestId: done.headers.get('x-request-id') });
    expect((await api.submit(t.keys.secretTest, init)).status).toBe(202);
    const r = await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed']);
    expect(r.body.verdict).toBe('approved');
  });

  it('submit before every step was uploaded: liveness_incomplete', async () => {
    const init = await livenessInit();
    const r = await api.submit(t.keys.secretTest, init);
    expectErrorShape(r, 400, 'invalid_body');
    expect(reason(r)).toBe('liveness_incomplete');
  });

  it('frames after the beacon window: challenge_expired; asking again issues the step afresh', async () => {
    const init = await livenessInit();
    const b = await next(init);
    expect((await api.uploadRole(init, 'liveness-1-1')).status).toBe(200);
    svc.clock.advance(21);
    expect(reason(await api.uploadRole(init, 'liveness-1-2'))).toBe('challenge_expired');
    const renewed = await next(init);
    expect(renewed.body.step).toBe(1);
    expect(renewed.body.nonce).not.toBe(b.body.nonce);
    expect(renewed.body.expiresAt).toBeGreaterThan(b.body.expiresAt);
    expect((await api.uploadRole(init, 'liveness-1-2')).status).toBe(200);
    svc.clock.offsetSeconds = 0;
  });

  it('capture source upload is refused for the anchor and frames', async () => {
    const init = await livenessInit();
    await next(init);
    expect(reason(await api.uploadRole(init, 'liveness-anchor', fakeJpeg(), { 'X-Service-Capture-Source': 'upload' }))).toBe(
      'upload_source_forbidden_for_biometric',
    );
    expect(reason(await api.uploadRole(init, 'liveness-1-1', fakeJpeg(), { 'X-Service-Capture-Source': 'upload' }))).toBe(
      'upload_source_forbidden_for_biometric',
    );
  });

  it('auth and scope: token header only; no challenge without opt-in; 404 for unknown', async () => {
    const init = await livenessInit();
    expect(reason(await next(init, { Authorization: `Bearer ${t.keys.secretTest}` }))).toBe('missing_upload_token');
    expect(reason(await next(init, { 'X-Service-Upload-Token': 'x'.repeat(32) }))).toBe('invalid_upload_token');
    const plain = (await api.init(t.keys.publishableTest)).body;
    expect(reason(await next(plain))).toBe('no_active_challenge');
    expectErrorShape(await next({ ...init, verificationId: 'vf_CCCCCCCCCCCCCCCCCCCC' }), 404, 'verification_not_found');
  });
});
