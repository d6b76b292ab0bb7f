import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type JsQr from 'jsqr';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { documentImage } from '../support/images.js';
import { watchCsp } from '../support/csp.js';
import { CAMERA_FILE, state } from '../support/env.js';
import { writeY4m } from '../support/y4m.js';
import { captureAndConfirm, events, openWidget, part, screenshot, step, verdictOf, waitForEvent, widget } from '../support/widget-page.js';

/** jsqr is CommonJS: its default export, as Node loads it. */
const jsQR = createRequire(import.meta.url)('jsqr') as typeof JsQr.default;

/**
 * Continue on a phone with two browser contexts: the desktop's widget (`cross-device`) shows a QR
 * code, a second context (the phone) opens its link, takes the photos and submits, and the
 * desktop follows.
 */

let phoneIp = 0;

/** A phone: its own context (cookies, storage), a phone-sized screen, its own client address. */
async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    permissions: ['camera'],
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.setExtraHTTPHeaders({ 'x-e2e-client': `198.51.100.${(phoneIp++ % 200) + 20}` });
  return page;
}

/** The link shown by the desktop: read from the QR code itself (decoded from a screenshot), checked against the text. */
async function linkOf(desktop: Page): Promise<string> {
  await expect(part(desktop, 'handoff-qr')).toBeVisible();
  const png = await part(desktop, 'handoff-qr').screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const decoded = jsQR(new Uint8ClampedArray(data), info.width, info.height);
  const text = await part(desktop, 'handoff-link').inputValue();
  expect(decoded?.data).toBe(text);
  return text;
}

/** Test mode forces the verdict: the fake camera may film the document for the selfie too. */
async function phoneCaptures(page: Page): Promise<void> {
  await step(page, 'document-front');
  await captureAndConfirm(page);
  await step(page, 'selfie');
  await captureAndConfirm(page);
}

test.beforeEach(async () => {
  await writeY4m(await documentImage(), CAMERA_FILE);
});

test('the whole handoff: QR on the desktop, photos on the phone, service:complete once on the desktop', async ({
  page: desktop,
  browser,
}) => {
  const { tenant } = state();
  await openWidget(desktop, { 'publishable-key': tenant.keys.publishableTest, 'full-name': 'Test Approve', 'cross-device': true });
  await expect(part(desktop, 'handoff-button')).toBeVisible();
  await part(desktop, 'handoff-button').click();
  await step(desktop, 'handoff');
  const url = await linkOf(desktop);
  expect(url).toMatch(new RegExp(`^${state().api}/continue/[A-Za-z0-9_-]{22,}$`));
  // No key, no token in the link.
  expect(url).not.toMatch(/qv_pub|qv_sec/);
  await expect(part(desktop, 'handoff-status')).toHaveAttribute('data-handoff-state', 'waiting');
  await screenshot(desktop, 'handoff-01-desktop-waiting');
  expect((await new AxeBuilder({ page: desktop }).include('service-widget').analyze()).violations.map((v) => v.id)).toEqual([]);

  const mobile = await phone(browser);
  const csp = await watchCsp(mobile);
  const opened = await mobile.goto(url);
  expect(opened!.headers()['referrer-policy']).toBe('no-referrer');
  expect(opened!.headers()['cache-control']).toBe('no-store');
  expect(await mobile.content()).not.toMatch(/qv_pub|qv_sec/);
  await expect(widget(mobile)).toHaveAttribute('data-step', 'intro');
  await screenshot(mobile, 'handoff-02-phone-intro');
  expect((await new AxeBuilder({ page: mobile }).analyze()).violations.map((v) => v.id)).toEqual([]);
  // Opening the page claimed nothing: the desktop still waits.
  await desktop.waitForTimeout(2_500);
  await expect(part(desktop, 'handoff-status')).toHaveAttribute('data-handoff-state', 'waiting');

  await part(mobile, 'start-button').click();
  await expect(part(desktop, 'handoff-status')).toHaveAttribute('data-handoff-state', 'in_progress', { timeout: 6_000 });
  await screenshot(desktop, 'handoff-03-desktop-in-progress');
  await phoneCaptures(mobile);
  await step(mobile, 'review');
  // A reload on the phone carries on with the same claim (its session is kept in sessionStorage).
  await mobile.reload();
  await part(mobile, 'start-button').click();
  await phoneCaptures(mobile);
  await step(mobile, 'review');
  await part(mobile, 'submit-button').click();
  const submittedAt = Date.now();
  await step(mobile, 'done');
  await expect(mobile.locator('service-widget h2')).toHaveText('Done: go back to your computer');
  await screenshot(mobile, 'handoff-04-phone-done');
  expect((await new AxeBuilder({ page: mobile }).analyze()).violations.map((v) => v.id)).toEqual([]);

  const complete = await waitForEvent(desktop, 'service:complete');
  const delay = Date.now() - submittedAt;
  console.log(`[handoff] desktop done ${delay} ms after the phone's submit`);
  expect(delay).toBeLessThan(6_000);
  await step(desktop, 'done');
  await desktop.waitForTimeout(2_500);
  const all = (await events(desktop)).filter((e) => e.type === 'service:complete' || e.type === 'service:error');
  expect(all.map((e) => e.type)).toEqual(['service:complete']);
  expect(complete.detail).toMatchObject({
    verificationId: expect.stringMatching(/^vf_/),
    status: expect.stringMatching(/queued|processing|completed/),
  });
  expect(Object.keys(complete.detail).sort()).toEqual(['status', 'verificationId']);
  expect((await verdictOf(complete.detail.verificationId, tenant.keys.secretTest)).verdict).toBe('approved');
  csp.expectNone();
  await mobile.context().close();
});

test('a second phone is refused, and the desktop cancel revokes the link', async ({ page: desktop, browser }) => {
  const { tenant } = state();
  await openWidget(desktop, {
    'publishable-key': tenant.keys.publishableTest,
    'full-name': 'Test Approve',
    'cross-device': true,
    locale: 'fr',
  });
  await part(desktop, 'handoff-button').click();
  await step(desktop, 'handoff');
  const url = await linkOf(desktop);
  const first = await phone(browser);
  await first.goto(url);
  await part(first, 'start-button').click();
  await step(first, 'document-front');
  // The desktop's language followed the link.
  await expect(first.locator('service-widget h2')).toHaveText('Recto de votre document');

  const second = await phone(browser);
  const csp = await watchCsp(second);
  await second.goto(url);
  await part(second, 'start-button').click();
  await step(second, 'error');
  await expect(second.locator('service-widget .error-text')).toContainText('already being used on another device');
  await screenshot(second, 'handoff-05-second-phone');
  expect((await new AxeBuilder({ page: second }).analyze()).violations.map((v) => v.id)).toEqual([]);
  csp.expectNone();

  await part(desktop, 'cancel-button').click();
  const cancelled = await waitForEvent(desktop, 'service:error');
  expect(cancelled.detail.code).toBe('user_cancelled');
  // Revoked: the first phone's claim is dead too (a reload claims again and is refused).
  await expect
    .poll(async () => {
      const third = await phone(browser);
      await third.goto(url);
      await part(third, 'start-button').click();
      await step(third, 'error');
      const text = await third.locator('service-widget .error-text').textContent();
      await third.context().close();
      return text;
    })
    .toContain('expired or was cancelled');
  await first.context().close();
  await second.context().close();
});

test.describe('camera denied on the desktop', () => {
  test.use({ permissions: [] });

  test('offers the phone instead of ending there (no service:error while it can)', async ({ page: desktop }) => {
    const { tenant } = state();
    await openWidget(desktop, { 'publishable-key': tenant.keys.publishableTest, 'cross-device': true });
    await part(desktop, 'start-button').click();
    await step(desktop, 'error');
    await expect(desktop.locator('service-widget [data-error-code="camera_denied"]')).toBeVisible();
    await expect(part(desktop, 'handoff-button')).toBeVisible();
    await screenshot(desktop, 'handoff-06-camera-denied-offer');
    expect((await new AxeBuilder({ page: desktop }).include('service-widget').analyze()).violations.map((v) => v.id)).toEqual([]);
    await desktop.waitForTimeout(500);
    expect((await events(desktop)).map((e) => e.type)).toEqual([]);
    await part(desktop, 'handoff-button').click();
    await step(desktop, 'handoff');
    await linkOf(desktop);
  });

  test('without cross-device it still ends on camera_denied', async ({ page }) => {
    await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
    await part(page, 'start-button').click();
    expect((await waitForEvent(page, 'service:error')).detail.code).toBe('camera_denied');
    await expect(part(page, 'handoff-button')).toHaveCount(0);
  });
});
