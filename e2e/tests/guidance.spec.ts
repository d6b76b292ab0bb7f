import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { documentImage, wallImage } from '../support/images.js';
import { CAMERA_FILE, state } from '../support/env.js';
import { writeY4m } from '../support/y4m.js';
import { expectMainThreadBudget, guidanceRate, openWidget, part, screenshot, step, widget } from '../support/widget-page.js';

/**
 * Document guidance and automatic capture on Chromium's fake camera (its real capture path): the
 * camera file is written before each test opens the camera.
 */

async function toDocumentStep(page: Page, attrs: Record<string, string | true> = {}) {
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, 'full-name': 'Test Approve', ...attrs });
  await part(page, 'start-button').click();
  await step(page, 'document-front');
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
}

const guidance = (page: Page) => widget(page).getAttribute('data-guidance');

test('a steady document in view is photographed by itself, at the camera size, after about 0.8 s of ready', async ({ page }) => {
  await writeY4m(await documentImage(), CAMERA_FILE);
  await toDocumentStep(page);
  await expect(widget(page)).toHaveAttribute('data-guidance', 'ready', { timeout: 15_000 });
  await expect(part(page, 'guidance')).toHaveText('Hold still, taking the photo…');
  await expect(part(page, 'guidance')).toHaveAttribute('aria-live', 'polite');
  const readyAt = Date.now();
  await expect(part(page, 'still')).toBeVisible({ timeout: 5_000 });
  const heldMs = Date.now() - readyAt;
  console.log(`[guidance] automatic capture ${heldMs} ms after ready was first seen`);
  expect(heldMs).toBeGreaterThan(300);
  // The photo is the camera's own size (the fake camera's 1280 x 720), not the preview's.
  const size = await part(page, 'still').evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  expect(size).toEqual([1280, 720]);
  // Guidance stops with the photo taken; confirm or retake as usual.
  await expect(widget(page)).not.toHaveAttribute('data-guidance', /.*/);
  await screenshot(page, 'guidance-02-auto-captured');
  await part(page, 'retake-button').click();
  await expect(widget(page)).toHaveAttribute('data-guidance', /./, { timeout: 15_000 });
  await expect(part(page, 'still')).toBeVisible({ timeout: 10_000 });
  await part(page, 'confirm-button').click();
  await step(page, 'selfie');
  // No guidance and no automatic capture on the selfie.
  await page.waitForTimeout(1_500);
  await expect(widget(page)).not.toHaveAttribute('data-guidance', /.*/);
  await expect(part(page, 'still')).toHaveCount(0);
});

test('a wall is never photographed: searching, the shutter usable, at least 5 readings a second', async ({ page }) => {
  await writeY4m(await wallImage(), CAMERA_FILE);
  await toDocumentStep(page);
  await expect(widget(page)).toHaveAttribute('data-guidance', 'searching', { timeout: 15_000 });
  await expect(part(page, 'guidance')).toHaveText('Place your document inside the frame');
  const seen = new Set<string | null>();
  for (let i = 0; i < 20; i++) {
    seen.add(await guidance(page));
    await page.waitForTimeout(150);
  }
  expect([...seen]).toEqual(['searching']);
  const rate = await guidanceRate(page);
  console.log(`[guidance] ${rate.toFixed(1)} readings a second`);
  expect(rate).toBeGreaterThanOrEqual(5);
  await expect(part(page, 'still')).toHaveCount(0);
  await screenshot(page, 'guidance-01-searching');
  const axe = await new AxeBuilder({ page }).include('service-widget').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await expectMainThreadBudget(page, 'document guidance');
  // A document the widget cannot find can always be photographed by hand.
  await part(page, 'capture-button').click();
  await expect(part(page, 'still')).toBeVisible();
});

test('a card far from the camera is told to come closer, and is not photographed', async ({ page }) => {
  await writeY4m(await documentImage(0.4), CAMERA_FILE);
  await toDocumentStep(page);
  await expect(widget(page)).toHaveAttribute('data-guidance', 'move_closer', { timeout: 15_000 });
  await expect(part(page, 'guidance')).toHaveText('Move closer');
  await page.waitForTimeout(2_000);
  await expect(widget(page)).toHaveAttribute('data-guidance', 'move_closer');
  await expect(part(page, 'still')).toHaveCount(0);
  await screenshot(page, 'guidance-03-move-closer');
});

test('manual-capture: the advice stays, the photo waits for the shutter', async ({ page }) => {
  await writeY4m(await documentImage(), CAMERA_FILE);
  await toDocumentStep(page, { 'manual-capture': true, locale: 'es' });
  await expect(widget(page)).toHaveAttribute('data-guidance', 'ready', { timeout: 15_000 });
  await expect(part(page, 'guidance')).toHaveText('Se ve bien: haz la foto');
  await page.waitForTimeout(2_500);
  await expect(part(page, 'still')).toHaveCount(0);
  await screenshot(page, 'guidance-04-manual-ready');
  await part(page, 'capture-button').click();
  await expect(part(page, 'still')).toBeVisible();
});
