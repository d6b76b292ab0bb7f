import { HANDOFF_CODE_PATTERN, handoffClaimResponseSchema, handoffCreateResponseSchema, LIMITS } from '@service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, call, expectErrorShape, fakeJpeg, reason, serviceWithTenant, type TenantKeys } from '../helpers/api-client.js';
import { dashboardUser } from '../helpers/dashboard-client.js';
import { CLIENT_IP_HEADER, type TestService } from '../helpers/test-service.js';

let svc: TestService;
let api: Api;
let t: TenantKeys;

beforeAll(async () => ({ svc, api, t } = await serviceWithTenant()));
afterAll(() => svc?.close());

const tokenOf = (slots: any): string => slots.uploads.docFront.headers['X-Service-Upload-Token'];

async function desktop(json: object = { submittedFullName: 'Test Approve' }, key = t.keys.publishableTest) {
  const init = await api.init(key, json);
  expect(init.status).toBe(200);
  return init.body;
}

const create = (init: any, json: object = {}, token = tokenOf(init)) =>
  call(svc.url, 'POST', '/v1/verify/handoff', {
    headers: { 'X-Service-Upload-Token': token },
    json: { verificationId: init.verificationId, ...json },
  });
const claim = (json: object, headers: Record<string, string> = {}) => call(svc.url, 'POST', '/v1/verify/handoff/claim', { json, headers });
const status = (token: string) => call(svc.url, 'GET', '/v1/verify/handoff/status', { headers: { 'X-Service-Upload-Token': token } });
const cancel = (token: string) => call(svc.url, 'POST', '/v1/verify/handoff/cancel', { headers: { 'X-Service-Upload-Token': token } });
const phoneSubmit = (phone: any, token = tokenOf(phone)) =>
  call(svc.url, 'POST', '/v1/verify/handoff/submit', {
    headers: { 'X-Service-Upload-Token': token },
    json: { verificationId: phone.verificationId, keys: { docFront: phone.uploads.docFront.key, selfie: phone.uploads.selfie.key } },
  });
const codeOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function linked(json?: object) {
  const init = await desktop(json);
  const made = await create(init, { documentBack: true, locale: 'pt-BR' });
  expect(made.status).toBe(200);
  return { init, url: made.body.handoffUrl as string, code: codeOf(made.body.handoffUrl) };
}

describe('continue on a phone', () => {
  it('runs end to end: link, claim, uploads and submit from the phone, the desktop following the state', async () => {
    const { init, url, code } = await linked();
    expect(handoffCreateResponseSchema.safeParse((await create(init)).body).success).toBe(true);
    // A second create revoked the first: take the newest link.
    const fresh = await create(init, { documentBack: true, locale: 'pt-BR' });
    const newest = codeOf(fresh.body.handoffUrl);
    expect(newest).not.toBe(code);
    expect(url.startsWith(`${svc.deps.config.publicBaseUrl}/continue/`)).toBe(true);
    expect(newest).toMatch(HANDOFF_CODE_PATTERN);
    // At least 128 random bits.
    expect(Buffer.from(newest, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(fresh.body.expiresAt).toBe(init.expiresAt + LIMITS.intentSeconds - LIMITS.uploadSlotSeconds);
    expect((await claim({ code })).status).toBe(410);

    const desktopToken = tokenOf(init);
    expect((await status(desktopToken)).body).toMatchObject({ state: 'waiting', verificationId: init.verificationId });

    const phone = await claim({ code: newest });
    expect(phone.status).toBe(200);
    expect(handoffClaimResponseSchema.safeParse(phone.body).success).toBe(true);
    expect(phone.headers.get('cache-control')).toBe('no-store');
    expect(phone.body.verificationId).toBe(init.verificationId);
    expect(phone.body.options).toEqual({ documentBack: true, activeLiveness: false, locale: 'pt-BR' });
    expect(tokenOf(phone.body)).not.toBe(desktopToken);
    expect((await status(desktopToken)).body.state).toBe('in_progress');

    // One device at a time: the desktop's token uploads no more, the phone's does.
    expect(reason(await api.upload(init, 'docFront'))).toBe('invalid_upload_token');
    for (const slot of ['docFront', 'selfie'] as const) expect((await api.upload(phone.body, slot, fakeJpeg())).status).toBe(200);
    // The phone holds no key: the desktop's token cannot submit for it.
    expect(reason(await phoneSubmit(phone.body, desktopToken))).toBe('invalid_upload_token');
    const submitted = await phoneSubmit(phone.body);
    expect(submitted.status).toBe(202);
    expect(submitted.body).toMatchObject({ verificationId: init.verificationId, status: 'queued' });
    const after = await status(desktopToken);
    expect(after.body.state).toBe('submitted');
    expect(['queued', 'processing', 'completed']).toContain(after.body.status);
    // Used: the link is dead, even for its claimant.
    expectErrorShape(await claim({ code: newest, handoffSession: phone.body.handoffSession }), 410, 'handoff_expired');
    const verdict = await api.waitForStatus(t.keys.secretTest, init.verificationId, ['completed']);
    expect(verdict.body.verdict).toBe('approved');
    // The dashboard's timeline tells the reviewer the phone took over.
    const { client } = await dashboardUser(api, t.tenantId, 'reviewer');
    const labels = (await client.get(`/verifications/${init.verificationId}`)).body.timeline.map((e: any) => e.label);
    expect(labels.slice(0, 4)).toEqual(['Created', 'Continued on another device', 'Submitted', 'Completed']);
  });

  it('has one claimant: another device gets 409 handoff_in_use, the claimant reloading carries on', async () => {
    const { init, code } = await linked();
    const first = await claim({ code });
    expect(first.status).toBe(200);
    expectErrorShape(await claim({ code }), 409, 'handoff_in_use');
    expectErrorShape(await claim({ code, handoffSession: 'hs_someone-else' }), 409, 'handoff_in_use');
    const reload = await claim({ code, handoffSession: first.body.handoffSession });
    expect(reload.status).toBe(200);
    expect(reload.body.handoffSession).toBe(first.body.handoffSession);
    // The reload's token replaces the first.
    expect(reason(await api.upload(first.body, 'docFront'))).toBe('invalid_upload_token');
    expect((await api.upload(reload.body, 'docFront')).status).toBe(200);
    expect((await status(tokenOf(init))).body.state).toBe('in_progress');
  });

  it('revokes the link on cancel, and the phone that claimed it loses its token', async () => {
    const { init, code } = await linked();
    const phone = await claim({ code });
    const cancelled = await cancel(tokenOf(init));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'expired', verificationId: init.verificationId });
    expect((await status(tokenOf(init))).body.state).toBe('expired');
    expectErrorShape(await claim({ code, handoffSession: phone.body.handoffSession }), 410, 'handoff_expired');
    expect(reason(await api.upload(phone.body, 'docFront'))).toBe('invalid_upload_token');

    const unclaimed = await linked();
    expect((await cancel(tokenOf(unclaimed.init))).status).toBe(200);
    expectErrorShape(await claim({ code: unclaimed.code }), 410, 'handoff_expired');
  });

  it('expires with the intent (an hour after init), and renews the slots a claim hands over', async () => {
    const { init, code } = await linked();
    svc.clock.advance(14 * 60);
    const phone = await claim({ code });
    // Slots as fresh as init's: 15 minutes from the claim (within the intent's hour).
    expect(phone.body.expiresAt).toBeGreaterThanOrEqual(init.expiresAt + 14 * 60 - 2);
    svc.clock.advance(LIMITS.intentSeconds - 14 * 60 + 5);
    try {
      expect((await status(tokenOf(init))).body.state).toBe('expired');
      const late = await linked();
      svc.clock.advance(LIMITS.intentSeconds + 5);
      expectErrorShape(await claim({ code: late.code }), 410, 'handoff_expired');
    } finally {
      svc.clock.offsetSeconds = 0;
    }
  });

  it('answers a guessed or malformed code with the contract errors, and counts claims per IP', async () => {
    expectErrorShape(await claim({ code: 'A'.repeat(24) }), 410, 'handoff_expired');
    expectErrorShape(await claim({}), 400, 'invalid_body');
    expectErrorShape(await claim({ code: 'short' }), 400, 'invalid_body');
    expectErrorShape(await claim({ code: 42 }), 400, 'invalid_body');
    const ip = { [CLIENT_IP_HEADER]: '203.0.113.77' };
    let limited: any = null;
    for (let i = 0; i < LIMITS.perIpPerMinute + 1 && !limited; i++) {
      const r = await claim({ code: `guess${String(i).padStart(19, '0')}` }, ip);
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(410);
    }
    expectErrorShape(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe(String(limited.body.detail.retry_after));
  });

  it('refuses links without the right upload token, and after submit', async () => {
    const init = await desktop();
    const none = await call(svc.url, 'POST', '/v1/verify/handoff', { json: { verificationId: init.verificationId } });
    expect(reason(none)).toBe('missing_upload_token');
    expect(reason(await create(init, {}, 'not-the-token'))).toBe('invalid_upload_token');
    expectErrorShape(await create({ verificationId: 'vf_nope' }, {}, tokenOf(init)), 400, 'invalid_body');
    expect(reason(await status('unknown-token'))).toBe('invalid_upload_token');
    expect(reason(await cancel('unknown-token'))).toBe('invalid_upload_token');
    const badLocale = await create(init, { locale: 'not a locale!' });
    expectErrorShape(badLocale, 400, 'invalid_body');
    expect(badLocale.body.detail.fieldErrors.locale).toBeTruthy();
    const ready = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    expect((await api.submit(t.keys.publishableTest, ready)).status).toBe(202);
    expect(reason(await create(ready))).toBe('already_submitted');
  });

  it('a token that was never handed to a phone cannot submit through the phone route', async () => {
    const ready = await api.prepared(t.keys.publishableTest, { submittedFullName: 'Test Approve' });
    expect(reason(await phoneSubmit(ready))).toBe('invalid_upload_token');
  });

  it('serves the phone page with a strict policy, no key, no code, and claims nothing when opened', async () => {
    const { init, code } = await linked();
    const page = await call(svc.url, 'GET', `/continue/${code}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toMatch(/'unsafe-inline'|'unsafe-eval'/);
    expect(csp).toContain("frame-ancestors 'none'");
    const html = page.body as string;
    expect(html).not.toContain(code);
    expect(html).not.toMatch(/qv_pub|qv_sec|X-Service-Upload-Token/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).toContain('<service-widget handoff>');
    // A link previewer fetched it: still unclaimed.
    expect((await status(tokenOf(init))).body.state).toBe('waiting');
    expect((await claim({ code })).status).toBe(200);
  });

  it('live mode takes one credit from the phone submit, and checks the balance', async () => {
    const poor = await api.tenant(1);
    const init = await desktop({}, poor.keys.publishable);
    const made = await create(init);
    const phone = await claim({ code: codeOf(made.body.handoffUrl) });
    for (const slot of ['docFront', 'selfie'] as const) expect((await api.upload(phone.body, slot, fakeJpeg())).status).toBe(200);
    expect((await phoneSubmit(phone.body)).status).toBe(202);
    // As submit: a zero balance is refused for every request of the tenant.
    expectErrorShape(await phoneSubmit(phone.body), 402, 'insufficient_credits');
    const tenant = await api.admin('GET', `/admin/v1/tenants/${poor.tenantId}`);
    expect(tenant.body.credits).toBe(0);
  });
});
