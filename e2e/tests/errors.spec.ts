import { expect, test, type Page } from '@playwright/test';
import { state } from '../support/env.js';
import { captureAndConfirm, events, openWidget, part, screenshot, step, uploads, waitForEvent } from '../support/widget-page.js';

async function toReview(page: Page, attrs: Record<string, string | true> = {}) {
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, 'full-name': 'Test Approve', ...attrs });
  await part(page, 'start-button').click();
  await step(page, 'document-front');
  await captureAndConfirm(page);
  await step(page, 'selfie');
  await captureAndConfirm(page);
  await step(page, 'review');
  // Let the selfie's background face check finish, so timings below are not skewed by it.
  await expect(page.locator('service-widget figure[data-role="selfie"]')).toHaveAttribute('data-checked', 'true', { timeout: 30_000 });
}

const uploadAttempts = async (page: Page, role: string) => (await uploads(page)).filter((u) => u.url.endsWith(`/${role}`));

test.describe('upload retry', () => {
  test('transient failures (network error, then 503) are retried after 400 ms and 1200 ms, then succeed', async ({ page }) => {
    await toReview(page);
    let n = 0;
    await page.route('**/v1/verify/upload/*/doc-front', async (route) => {
      n++;
      if (n === 1) return route.abort('failed');
      if (n === 2) return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"backend_unavailable","message":"x","requestId":"r"}' });
      return route.continue();
    });
    await part(page, 'submit-button').click();
    const complete = await waitForEvent(page, 'service:complete');
    expect(complete.detail.status).toBe('queued');
    const attempts = await uploadAttempts(page, 'doc-front');
    expect(attempts).toHaveLength(3);
    const gap1 = attempts[1]!.at - attempts[0]!.at;
    const gap2 = attempts[2]!.at - attempts[1]!.at;
    // Each gap is the wait plus the failed attempt itself; the waits are 400 ms then 1200 ms.
    expect(gap1).toBeGreaterThanOrEqual(400);
    expect(gap1).toBeLessThan(400 + 500);
    expect(gap2).toBeGreaterThanOrEqual(1200);
    expect(gap2).toBeLessThan(1200 + 500);
    expect((await events(page)).map((e) => e.type)).toEqual(['service:complete']);
  });

  test('three transient failures: upload_failed after exactly 3 attempts, no API detail', async ({ page }) => {
    await toReview(page);
    await page.route('**/v1/verify/upload/*/doc-front', (route) => route.fulfill({ status: 502, body: 'bad gateway' }));
    await part(page, 'submit-button').click();
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail.code).toBe('upload_failed');
    expect(typeof err.detail.message).toBe('string');
    expect(err.detail).not.toHaveProperty('detail');
    expect(await uploadAttempts(page, 'doc-front')).toHaveLength(3);
    await step(page, 'error');
    await screenshot(page, '08-error-upload-failed');
  });

  test('a permanent 4xx fails at once, with the API detail verbatim', async ({ page }) => {
    await toReview(page);
    await page.route('**/v1/verify/upload/*/doc-front', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'invalid_body', message: 'Body is not a JPEG image', requestId: 'req_x', detail: { reason: 'not_a_jpeg' } }) }),
    );
    await part(page, 'submit-button').click();
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail).toMatchObject({ code: 'internal_error', detail: { reason: 'not_a_jpeg' } });
    expect(await uploadAttempts(page, 'doc-front')).toHaveLength(1);
    expect(err.bubbles && err.composed).toBe(true);
  });
});

test.describe('API errors map to their codes', () => {
  test('402 from init: insufficient_credits (real API, tenant without credits)', async ({ page }) => {
    await toReview(page, { 'publishable-key': state().poorTenant.keys.publishableTest });
    await part(page, 'submit-button').click();
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail.code).toBe('insufficient_credits');
    expect(err.detail).not.toHaveProperty('detail');
  });

  test('invalid key (real API): invalid_api_key', async ({ page }) => {
    await toReview(page, { 'publishable-key': 'qv_pubt_' + 'Z'.repeat(32) });
    await part(page, 'submit-button').click();
    expect((await waitForEvent(page, 'service:error')).detail.code).toBe('invalid_api_key');
  });

  test('429 from init: rate_limited with detail.retry_after verbatim', async ({ page }) => {
    await toReview(page);
    await page.route('**/v1/verify/init', (route) =>
      route.fulfill({ status: 429, headers: { 'Retry-After': '17' }, contentType: 'application/json', body: JSON.stringify({ error: 'rate_limited', message: 'Too many requests', requestId: 'req_y', detail: { retry_after: 17 } }) }),
    );
    await part(page, 'submit-button').click();
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail).toMatchObject({ code: 'rate_limited', detail: { retry_after: 17 } });
    await screenshot(page, '09-error-rate-limited');
  });

  test('network failure on submit: api_unreachable', async ({ page }) => {
    await toReview(page);
    await page.route('**/v1/verify/submit', (route) => route.abort('connectionrefused'));
    await part(page, 'submit-button').click();
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail.code).toBe('api_unreachable');
    expect(err.detail).not.toHaveProperty('detail');
  });

  test('503 backend_unavailable on init: api_unreachable with the API detail', async ({ page }) => {
    await toReview(page);
    await page.route('**/v1/verify/init', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'backend_unavailable', message: 'x', requestId: 'r', detail: { retry_after: 5 } }) }),
    );
    await part(page, 'submit-button').click();
    expect((await waitForEvent(page, 'service:error')).detail).toMatchObject({ code: 'api_unreachable', detail: { retry_after: 5 } });
  });
});

test.describe('cancel and camera', () => {
  test('cancel at any step: service:error user_cancelled, camera off, error screen with retry', async ({ page }) => {
    await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
    await part(page, 'start-button').click();
    await step(page, 'document-front');
    await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
    await part(page, 'cancel-button').click();
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail).toEqual({ code: 'user_cancelled', message: expect.any(String) });
    await step(page, 'error');
    expect(await page.evaluate(() => document.querySelector('service-widget')!.shadowRoot!.querySelector('video'))).toBeNull();
    await screenshot(page, '10-cancelled');
    await part(page, 'retry-button').click();
    await step(page, 'intro');
    expect((await events(page)).length).toBe(1);
  });

  test('cancel during upload stops the flow; no service:complete follows', async ({ page }) => {
    await toReview(page);
    await page.route('**/v1/verify/upload/**', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {});
    });
    await part(page, 'submit-button').click();
    await step(page, 'uploading');
    await screenshot(page, '11-uploading');
    await part(page, 'cancel-button').click();
    await page.waitForTimeout(4000);
    expect((await events(page)).map((e) => [e.type, e.detail.code])).toEqual([['service:error', 'user_cancelled']]);
  });
});

test.describe('camera permission denied', () => {
  test.use({ permissions: [] });

  test('camera_denied, with a recovery screen', async ({ page }) => {
    await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
    await part(page, 'start-button').click();
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail.code).toBe('camera_denied');
    expect(err.detail).not.toHaveProperty('detail');
    await step(page, 'error');
    await expect(page.locator('service-widget [data-error-code="camera_denied"]')).toBeVisible();
    // Focus moved to the error screen's heading; the recovery action is the next stop.
    expect(await page.evaluate(() => document.querySelector('service-widget')!.shadowRoot!.activeElement?.tagName)).toBe('H2');
    await page.keyboard.press('Tab');
    await expect(part(page, 'retry-button')).toBeFocused();
    await screenshot(page, '12-camera-denied');
  });
});
