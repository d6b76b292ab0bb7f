import { expect, test } from '@playwright/test';
import { SELFIE_SOURCE, documentImage } from '../support/images.js';
import { CAMERA_FILE, state } from '../support/env.js';
import { writeY4m } from '../support/y4m.js';
import {
  captureAndConfirm,
  events,
  expectMainThreadBudget,
  openWidget,
  part,
  screenshot,
  step,
  uploads,
  verdictOf,
  waitForEvent,
  widget,
} from '../support/widget-page.js';

test.beforeEach(async () => {
  await writeY4m(await documentImage(), CAMERA_FILE);
});

test('happy path: document, selfie, review, upload, service:complete, then the verdict by polling', async ({ page }) => {
  const { tenant } = state();
  await openWidget(page, {
    'publishable-key': tenant.keys.publishableTest,
    'full-name': 'Test Approve',
    'user-ref': 'e2e-user-1',
    country: 'ES',
    'document-type': 'dni',
  });
  await screenshot(page, '01-intro');
  await part(page, 'start-button').click();

  await step(page, 'document-front');
  const preview = part(page, 'preview');
  await expect(preview).toBeVisible();
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  // The rear camera preview is not mirrored; the video is muted and inline.
  expect(
    await preview.evaluate((v: HTMLVideoElement) => ({
      muted: v.muted,
      inline: v.playsInline,
      mirrored: getComputedStyle(v).transform !== 'none',
      width: v.videoWidth,
    })),
  ).toEqual({
    muted: true,
    inline: true,
    mirrored: false,
    width: 1280,
  });
  await screenshot(page, '02-document-front');
  await part(page, 'capture-button').click();
  await expect(part(page, 'still')).toBeVisible();
  // The camera is off while the still is shown.
  expect(await page.evaluate(() => document.querySelector('service-widget')!.shadowRoot!.querySelector('video'))).toBeNull();
  await screenshot(page, '03-document-front-taken');

  // Switch the fake camera to a face before the selfie step reopens it.
  await writeY4m(SELFIE_SOURCE, CAMERA_FILE);
  await part(page, 'confirm-button').click();
  await step(page, 'selfie');
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  expect(await part(page, 'preview').evaluate((v) => getComputedStyle(v).transform)).not.toBe('none');
  await page.waitForTimeout(300);
  await screenshot(page, '04-selfie');
  await captureAndConfirm(page).catch(async () => {
    await part(page, 'confirm-button').click();
  });

  await step(page, 'review');
  await expect(page.locator('service-widget img')).toHaveCount(2);
  // The selfie's face check (detector loaded lazily from the API) finds Grace Hopper's face: no hints.
  await expect(page.locator('service-widget figure[data-role="selfie"]')).toHaveAttribute('data-checked', 'true', { timeout: 30_000 });
  await expect(page.locator('service-widget [data-hint]')).toHaveCount(0);
  await screenshot(page, '05-review');
  expect(await events(page)).toEqual([]);
  await part(page, 'submit-button').click();

  const complete = await waitForEvent(page, 'service:complete');
  await step(page, 'done');
  await screenshot(page, '06-done');
  expect(complete.bubbles).toBe(true);
  expect(complete.composed).toBe(true);
  expect(Object.keys(complete.detail).sort()).toEqual(['status', 'verificationId']);
  expect(complete.detail.verificationId).toMatch(/^vf_[A-Za-z0-9]{16,24}$/);
  expect(complete.detail.status).toBe('queued');
  expect((await events(page)).map((e) => e.type)).toEqual(['service:complete']);

  const up = await uploads(page);
  expect(up.map((u) => new URL(u.url).pathname.split('/').pop())).toEqual(['doc-front', 'selfie']);

  // No main-thread task over 100 ms once the camera is live (the face check runs in a worker).
  await expectMainThreadBudget(page, 'happy path');

  const verdict = await verdictOf(complete.detail.verificationId, tenant.keys.secretTest);
  expect(verdict).toMatchObject({ status: 'completed', verdict: 'approved', mode: 'test' });
  await expect(widget(page)).toHaveAttribute('data-step', 'done');
});

test('document back: three captures, and the back is uploaded and submitted', async ({ page }) => {
  const { tenant } = state();
  await openWidget(page, { 'publishable-key': tenant.keys.publishableTest, 'full-name': 'Test Review', 'document-back': true });
  await part(page, 'start-button').click();
  await step(page, 'document-front');
  await captureAndConfirm(page);
  await step(page, 'document-back');
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  await screenshot(page, '07-document-back');
  await captureAndConfirm(page);
  await step(page, 'selfie');
  await captureAndConfirm(page);
  await step(page, 'review');
  await expect(page.locator('service-widget img')).toHaveCount(3);

  // Retake from review goes back to that step and returns to review.
  await page.locator('service-widget [part="retake-button"]').nth(1).click();
  await step(page, 'document-back');
  await captureAndConfirm(page);
  await step(page, 'review');

  const submits: any[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/v1/verify/submit')) submits.push(r.postDataJSON());
  });
  await part(page, 'submit-button').click();
  const complete = await waitForEvent(page, 'service:complete');
  const up = await uploads(page);
  // Each photo went up when confirmed; the retake replaced the back's slot.
  expect(up.map((u) => new URL(u.url).pathname.split('/').pop())).toEqual(['doc-front', 'doc-back', 'selfie', 'doc-back']);
  expect(Object.keys(submits[0].keys).sort()).toEqual(['docBack', 'docFront', 'selfie']);
  expect((await verdictOf(complete.detail.verificationId, tenant.keys.secretTest)).verdict).toBe('review');
});

test('a blurry photo gets the inline blurry_image hint on review (shown, never dispatched)', async ({ page }) => {
  const sharp = (await import('sharp')).default;
  await writeY4m(
    await sharp(await documentImage())
      .blur(14)
      .toBuffer(),
    CAMERA_FILE,
  );
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, 'full-name': 'Test Approve' });
  await part(page, 'start-button').click();
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  await part(page, 'capture-button').click();
  // Swap the fake camera's file before confirm reopens the camera for the selfie.
  await writeY4m(SELFIE_SOURCE, CAMERA_FILE);
  await part(page, 'confirm-button').click();
  await step(page, 'selfie');
  await captureAndConfirm(page);
  await step(page, 'review');
  const hints = page.locator('service-widget [data-hint]');
  await expect(hints).toHaveCount(1);
  await expect(hints.first()).toHaveAttribute('data-hint', 'blurry_image');
  await expect(hints.first()).toContainText('blurry');
  await screenshot(page, '17-review-blurry-hint');
  expect(await events(page)).toEqual([]);
});

test('a selfie without a face gets the inline no_face_in_selfie hint; the detector loads only at the selfie step', async ({ page }) => {
  const sharp = (await import('sharp')).default;
  // A sharp picture with no face in it: a shelf of coloured boxes.
  const boxes = Array.from(
    { length: 60 },
    (_, i) =>
      `<rect x="${(i % 10) * 128 + 8}" y="${Math.floor(i / 10) * 120 + 8}" width="112" height="104" fill="hsl(${(i * 47) % 360},60%,50%)"/>`,
  ).join('');
  const noFace = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="1280" height="720" fill="#222"/>${boxes}</svg>`,
    ),
  )
    .jpeg()
    .toBuffer();
  const vendorRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/widget/vision/')) vendorRequests.push(new URL(r.url()).pathname);
  });
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
  await part(page, 'start-button').click();
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  expect(vendorRequests).toEqual([]);
  await part(page, 'capture-button').click();
  await writeY4m(noFace, CAMERA_FILE);
  await part(page, 'confirm-button').click();
  await step(page, 'selfie');
  await captureAndConfirm(page);
  await step(page, 'review');
  await expect(page.locator('service-widget figure[data-role="selfie"]')).toHaveAttribute('data-checked', 'true', { timeout: 30_000 });
  const hints = page.locator('service-widget [data-hint]');
  await expect(hints).toHaveCount(1);
  await expect(hints.first()).toHaveAttribute('data-hint', 'no_face_in_selfie');
  // Content-hashed vision files, all from the API.
  expect(vendorRequests[0]).toBe('/widget/vision/manifest.json');
  for (const name of ['human.esm', 'blazeface', 'facemesh']) {
    expect(vendorRequests.some((p) => new RegExp(`^/widget/vision/${name}\\.[A-Za-z0-9]{12}\\.(js|json|bin)$`).test(p))).toBe(true);
  }
  await screenshot(page, '18-review-no-face-hint');
  expect(await events(page)).toEqual([]);
});
