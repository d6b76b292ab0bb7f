import { expect, test, type Page } from '@playwright/test';
import { state } from '../support/env.js';
import { openWidget, part, screenshot, step, verdictOf, waitForEvent, widget } from '../support/widget-page.js';

/** The `part` of the element focused inside the widget's shadow root, or null. */
const focusedPart = (page: Page) =>
  page.evaluate(() => document.querySelector('service-widget')!.shadowRoot!.activeElement?.getAttribute('part') ?? null);
const focusedTag = (page: Page) =>
  page.evaluate(() => document.querySelector('service-widget')!.shadowRoot!.activeElement?.tagName ?? null);

/** Presses Tab until the control with this part has focus, then Enter. Fails if it is unreachable. */
async function keyboardActivate(page: Page, partName: string) {
  for (let i = 0; i < 12; i++) {
    if ((await focusedPart(page)) === partName) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`${partName} is not reachable with Tab`);
}

test('keyboard only: the whole flow with Tab and Enter; focus moves to each new step', async ({ page }) => {
  const { tenant } = state();
  await openWidget(page, { 'publishable-key': tenant.keys.publishableTest, 'full-name': 'Test Approve' });
  await page.keyboard.press('Tab');
  await keyboardActivate(page, 'start-button');
  await step(page, 'document-front');
  expect(await focusedTag(page)).toBe('H2');
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  await keyboardActivate(page, 'capture-button');
  await expect(part(page, 'confirm-button')).toBeFocused();
  await page.keyboard.press('Enter');
  await step(page, 'selfie');
  expect(await focusedTag(page)).toBe('H2');
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  await keyboardActivate(page, 'capture-button');
  await expect(part(page, 'confirm-button')).toBeFocused();
  await page.keyboard.press('Enter');
  await step(page, 'review');
  expect(await focusedTag(page)).toBe('H2');
  await keyboardActivate(page, 'submit-button');
  const complete = await waitForEvent(page, 'service:complete');
  await step(page, 'done');
  expect((await verdictOf(complete.detail.verificationId, tenant.keys.secretTest)).verdict).toBe('approved');
});

test('every control is a labelled button; the live region announces steps', async ({ page }) => {
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
  const unlabelled = await page.evaluate(
    () =>
      [...document.querySelector('service-widget')!.shadowRoot!.querySelectorAll('button')].filter(
        (b) => !(b.getAttribute('aria-label') || b.textContent?.trim()),
      ).length,
  );
  expect(unlabelled).toBe(0);
  await part(page, 'start-button').click();
  await step(page, 'document-front');
  await expect(page.locator('service-widget [role="status"]')).toHaveText('Front of your document');
  await expect(part(page, 'preview')).toHaveAttribute('aria-label', 'Camera preview');
});

test('locale es is complete; an unknown locale falls back to English', async ({ page }) => {
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, locale: 'es-MX' });
  await expect(part(page, 'start-button')).toHaveText('Empezar');
  await expect(page.locator('service-widget section')).toHaveAttribute('lang', 'es');
  await screenshot(page, '14-intro-es');
  await page.evaluate(() => document.querySelector('service-widget')!.setAttribute('locale', 'xx'));
  await expect(part(page, 'start-button')).toHaveText('Start');
});

test('phone-sized layout: full-width stacked buttons, nothing overflows', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
  await part(page, 'start-button').click();
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  const box = await part(page, 'capture-button').boundingBox();
  expect(box!.width).toBeGreaterThan(300);
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, '15-phone-document-front');
});

test('reduced motion is respected; theming through custom properties and parts', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
  expect(await page.locator('service-widget section').evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await page.locator('service-widget section').evaluate((el) => getComputedStyle(el).transitionDuration)).not.toBe('0s');

  await page.addStyleTag({
    content: 'service-widget { --service-accent: rgb(200, 0, 100); } service-widget::part(cancel-button) { border-color: rgb(0, 128, 0); }',
  });
  expect(await part(page, 'start-button').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(200, 0, 100)');
  expect(await part(page, 'cancel-button').evaluate((b) => getComputedStyle(b).borderTopColor)).toBe('rgb(0, 128, 0)');
  await expect(widget(page)).toHaveAttribute('data-step', 'intro');
});
