import { expect, test, type Page } from '@playwright/test';
import { state } from '../support/env.js';
import {
  backoffWaits,
  captureAndConfirm,
  events,
  openWidget,
  part,
  screenshot,
  step,
  uploads,
  waitForEvent,
} from '../support/widget-page.js';

async function open(page: Page, attrs: Record<string, string | true> = {}) {
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, 'full-name': 'Test Approve', ...attrs });
}

/** Start, then both photos; each upload starts in the background when its photo is confirmed. */
async function toReview(page: Page, attrs: Record<string, string | true> = {}, opened = false) {
  if (!opened) await open(page, attrs);
  await part(page, 'start-button').click();
  await step(page, 'document-front');
  await captureAndConfirm(page);
  await step(page, 'selfie');
  await captureAndConfirm(page);
  await step(page, 'review');
  // Let the selfie's background face check finish, so timings below are not skewed by it.
  await expect(page.locator('service-widget figure[data-role="selfie"]')).toHaveAttribute('data-checked', 'true', { timeout: 30_000 });
}

/** How late a page timer may fire under load (the backoff steps are 400 and 1,200 ms apart). */
const TIMER_SLACK = 300;

const uploadAttempts = async (page: Page, role: string) => (await uploads(page)).filter((u) => u.url.endsWith(`/${role}`));

test.describe('upload retry', () => {
  test.describe.configure({ timeout: 120_000 });
  test('transient failures (network error, then 503) are retried after 400 ms and 1200 ms, then succeed', async ({ page }) => {
    await open(page);
    let n = 0;
    await page.route('**/v1/verify/upload/*/doc-front', async (route) => {
      n++;
      if (n === 1) return route.abort('failed');
      if (n === 2)
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"error":"backend_unavailable","message":"x","requestId":"r"}',
        });
      return route.continue();
    });
    await toReview(page, {}, true);
    await part(page, 'submit-button').click();
    const complete = await waitForEvent(page, 'service:complete');
    expect(complete.detail.status).toBe('queued');
    const attempts = await uploadAttempts(page, 'doc-front');
    expect(attempts).toHaveLength(3);
    // The waits, from a failed attempt's end to the next attempt, in the page: 400 ms then 1200 ms.
    const [wait1, wait2] = backoffWaits(attempts);
    console.log(`[backoff] standard flow: waits measured in the page ${Math.round(wait1!)} ms, ${Math.round(wait2!)} ms`);
    // Never early; late by at most TIMER_SLACK: a timer on a loaded two-core machine fires late
    // (1,312 ms measured for 1,200 at a load of 2.4 per core), far from any other schedule.
    expect(wait1).toBeGreaterThanOrEqual(400);
    expect(wait1).toBeLessThan(400 + TIMER_SLACK);
    expect(wait2).toBeGreaterThanOrEqual(1200);
    expect(wait2).toBeLessThan(1200 + TIMER_SLACK);
    expect((await events(page)).map((e) => e.type)).toEqual(['service:complete']);
  });

  test('three transient failures: upload_failed after exactly 3 attempts, no API detail; "Try again" keeps the photos', async ({
    page,
  }) => {
    await open(page);
    let fail = true;
    await page.route('**/v1/verify/upload/*/doc-front', (route) =>
      fail ? route.fulfill({ status: 502, body: 'bad gateway' }) : route.continue(),
    );
    await part(page, 'start-button').click();
    await captureAndConfirm(page);
    // The background upload of the document fails for good while the user is on the selfie step.
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail.code).toBe('upload_failed');
    expect(typeof err.detail.message).toBe('string');
    expect(err.detail).not.toHaveProperty('detail');
    expect(await uploadAttempts(page, 'doc-front')).toHaveLength(3);
    await step(page, 'error');
    await screenshot(page, '08-error-upload-failed');
    // The error screen offers cancel as well as retry; retry keeps the document photo.
    await expect(part(page, 'cancel-button')).toBeVisible();
    fail = false;
    await part(page, 'retry-button').click();
    await step(page, 'selfie');
    await captureAndConfirm(page);
    await step(page, 'review');
    await expect(page.locator('service-widget img')).toHaveCount(2);
    await part(page, 'submit-button').click();
    await waitForEvent(page, 'service:complete');
    // The same verification: no second init; the document went again, then the selfie.
    expect((await uploads(page)).map((u) => u.url.split('/').pop())).toEqual([
      'doc-front',
      'doc-front',
      'doc-front',
      'doc-front',
      'selfie',
    ]);
  });

  test('cancel on the error screen: user_cancelled follows the failure', async ({ page }) => {
    await open(page);
    await page.route('**/v1/verify/upload/*/doc-front', (route) => route.fulfill({ status: 502, body: 'bad gateway' }));
    await part(page, 'start-button').click();
    await captureAndConfirm(page);
    await waitForEvent(page, 'service:error');
    await part(page, 'cancel-button').click();
    await expect(page.locator('service-widget [data-error-code="user_cancelled"]')).toBeVisible();
    expect((await events(page)).map((e) => e.detail.code)).toEqual(['upload_failed', 'user_cancelled']);
  });

  test('a permanent 4xx fails at once, with the API detail verbatim', async ({ page }) => {
    await open(page);
    await page.route('**/v1/verify/upload/*/doc-front', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'invalid_body',
          message: 'Body is not a JPEG image',
          requestId: 'req_x',
          detail: { reason: 'not_a_jpeg' },
        }),
      }),
    );
    await part(page, 'start-button').click();
    await captureAndConfirm(page);
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail).toMatchObject({ code: 'internal_error', detail: { reason: 'not_a_jpeg' } });
    expect(await uploadAttempts(page, 'doc-front')).toHaveLength(1);
    expect(err.bubbles && err.composed).toBe(true);
  });
});

test.describe('API errors map to their codes', () => {
  /** init runs when start is pressed: its errors show before the camera is asked for. */
  const cameraRequested = (page: Page) => page.evaluate(() => (window as any).__cameraLiveAt !== null);

  test('402 from init: insufficient_credits (real API, tenant without credits), before the camera opens', async ({ page }) => {
    await open(page, { 'publishable-key': state().poorTenant.keys.publishableTest });
    await part(page, 'start-button').click();
    const err = await waitForEvent(page, 'service:error');
    expect(err.detail.code).toBe('insufficient_credits');
    expect(err.detail).not.toHaveProperty('detail');
    expect(await cameraRequested(page)).toBe(false);
  });

  test('invalid key (real API): invalid_api_key, before the camera opens', async ({ page }) => {
    await open(page, { 'publishable-key': 'qv_pubt_' + 'Z'.repeat(32) });
    await part(page, 'start-button').click();
    expect((await waitForEvent(page, 'service:error')).detail.code).toBe('invalid_api_key');
    expect(await cameraRequested(page)).toBe(false);
  });

  test('429 from init: rate_limited with detail.retry_after verbatim', async ({ page }) => {
    await open(page);
    await page.route('**/v1/verify/init', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'Retry-After': '17' },
        contentType: 'application/json',
        body: JSON.stringify({ error: 'rate_limited', message: 'Too many requests', requestId: 'req_y', detail: { retry_after: 17 } }),
      }),
    );
    await part(page, 'start-button').click();
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
    await open(page);
    await page.route('**/v1/verify/init', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'backend_unavailable', message: 'x', requestId: 'r', detail: { retry_after: 5 } }),
      }),
    );
    await part(page, 'start-button').click();
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

  test('cancel aborts the upload in flight; no service:complete follows', async ({ page }) => {
    await open(page);
    // The selfie's upload hangs: it is still in flight when the user cancels.
    await page.route('**/v1/verify/upload/*/selfie', () => {});
    const aborted = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/selfie'));
    await toReview(page, {}, true);
    await part(page, 'submit-button').click();
    await step(page, 'uploading');
    await screenshot(page, '11-uploading');
    await part(page, 'cancel-button').click();
    const failed = await aborted;
    expect(failed.failure()?.errorText).toMatch(/ABORTED|abort/i);
    await page.waitForTimeout(1500);
    expect((await events(page)).map((e) => [e.type, e.detail.code])).toEqual([['service:error', 'user_cancelled']]);
    // Aborted by the user: no retry attempt followed.
    expect((await uploads(page)).filter((u) => u.url.endsWith('/selfie'))).toHaveLength(1);
  });

  test("the host page cannot restyle the inside: text-align, line-height and fonts stay the widget's", async ({ page }) => {
    await open(page);
    await page.addStyleTag({
      content: 'body { text-align: center; line-height: 3; font-family: serif; font-size: 30px; letter-spacing: 4px; }',
    });
    const inside = await page.evaluate(() => {
      const p = document.querySelector('service-widget')!.shadowRoot!.querySelector('p')!;
      const cs = getComputedStyle(p);
      return { align: cs.textAlign, lineHeight: cs.lineHeight, font: cs.fontFamily, size: cs.fontSize, spacing: cs.letterSpacing };
    });
    expect(inside.align).toBe('start');
    expect(inside.lineHeight).toBe('24px');
    expect(inside.font).not.toContain('serif,');
    expect(inside.font).toContain('system-ui');
    expect(inside.size).toBe('16px');
    expect(inside.spacing).toBe('normal');
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
    // Focus moved to the error screen's heading; its two actions follow: Cancel, then Try again.
    expect(await page.evaluate(() => document.querySelector('service-widget')!.shadowRoot!.activeElement?.tagName)).toBe('H2');
    await page.keyboard.press('Tab');
    await expect(part(page, 'cancel-button')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(part(page, 'retry-button')).toBeFocused();
    await screenshot(page, '12-camera-denied');
  });
});
