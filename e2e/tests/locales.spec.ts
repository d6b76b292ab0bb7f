import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { en } from '../../packages/widget/src/i18n/en.js';
import { state } from '../support/env.js';
import { openWidget, screenshot, widget } from '../support/widget-page.js';

/** The intro's texts in English: none may be left in another language's intro. */
const ENGLISH = [
  en.title,
  en.introBody,
  en.introSteps,
  en.privacy,
  en.cameraPrimer,
  en.start,
  en.cancel,
  en.handoffButton,
  en.handoffOffer,
];

for (const locale of ['es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'tr', 'ar', 'ja', 'zh']) {
  test(`intro in ${locale}: no English left, laid out ${locale === 'ar' ? 'right to left' : 'left to right'}`, async ({ page }) => {
    await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, locale, 'cross-device': true });
    const panel = widget(page).locator('[part="panel"]');
    await expect(panel).toHaveAttribute('lang', locale);
    await expect(panel).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
    // Every text of the intro (heading, paragraphs, buttons), none of them English.
    const texts = (await panel.locator('h2, p, button').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(texts.length).toBeGreaterThanOrEqual(8);
    for (const text of texts) expect(ENGLISH, text).not.toContain(text);
    for (const english of ENGLISH.filter((e) => e.length > 12)) expect(texts.join(' '), english).not.toContain(english);
    if (locale === 'ar') {
      // The buttons run from the right: Start (the primary action) sits left of Cancel in RTL's order end.
      const start = await widget(page).locator('[part="start-button"]').boundingBox();
      const cancel = await widget(page).locator('[part="cancel-button"]').boundingBox();
      expect(start!.x).toBeLessThan(cancel!.x);
      const heading = await widget(page)
        .locator('h2')
        .evaluate((h) => getComputedStyle(h).direction);
      expect(heading).toBe('rtl');
    }
    await screenshot(page, `locale-${locale}-intro`);
    expect((await new AxeBuilder({ page }).include('service-widget').analyze()).violations.map((v) => v.id)).toEqual([]);
  });
}

test('a regional tag falls back to its language, an unknown one to English', async ({ page }) => {
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, locale: 'pt-BR' });
  await expect(widget(page).locator('[part="panel"]')).toHaveAttribute('lang', 'pt');
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, locale: 'sv-SE' });
  await expect(widget(page).locator('h2')).toHaveText(en.title);
});

test("the demo page's language menu lists all twelve, and switching it restarts the widget in that language", async ({ page }) => {
  const { api } = state();
  await page.setExtraHTTPHeaders({ 'x-e2e-client': '192.0.2.120' });
  await page.goto(`${api}/demo`);
  const options = await page.locator('select[name="locale"] option').evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value));
  expect(options.sort()).toEqual(['ar', 'de', 'en', 'es', 'fr', 'it', 'ja', 'nl', 'pl', 'pt', 'tr', 'zh']);
  await page.locator('select[name="locale"]').selectOption('ja');
  await page.getByRole('button', { name: 'Restart the widget' }).click();
  await expect(widget(page).locator('h2')).toHaveText('本人確認');
});
