import { expect, test } from '@playwright/test';
import {
  continueOnPhone,
  FORCE_VERDICT,
  guidanceOf,
  handoffState,
  installFakeCamera,
  waitForAutomaticCapture,
  waitForGuidance,
} from '@service/testing';
import { state } from '../support/env.js';
import { openWidget, part, verdictOf, widget } from '../support/widget-page.js';

/** What a tenant's QA suite gets from @service/testing to drive the guidance and the handoff. */

test('guidance helpers: a document held near is ready and taken by itself; held far, move closer', async ({ page }) => {
  await installFakeCamera(page, { documentScale: 0.75 });
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest, 'full-name': FORCE_VERDICT.approved });
  await part(page, 'start-button').click();
  await waitForGuidance(widget(page), 'ready');
  await waitForAutomaticCapture(widget(page));
  await expect(widget(page)).toHaveAttribute('data-step', 'selfie');
  expect(await guidanceOf(widget(page))).toBeNull();
});

test('guidance helpers: a document a third of the frame wide is told to come closer', async ({ page }) => {
  await installFakeCamera(page, { documentScale: 0.3 });
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
  await part(page, 'start-button').click();
  await waitForGuidance(widget(page), 'move_closer');
  expect(await guidanceOf(widget(page))).toBe('move_closer');
});

test('continueOnPhone: the desktop link taken through on a phone context', async ({ page: desktop, browser }) => {
  const { tenant } = state();
  await openWidget(desktop, { 'publishable-key': tenant.keys.publishableTest, 'full-name': FORCE_VERDICT.approved, 'cross-device': true });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['camera'] });
  const phone = await context.newPage();
  await phone.setExtraHTTPHeaders({ 'x-e2e-client': '198.51.100.250' });
  await installFakeCamera(phone, { documentScale: 0.75 });
  const detail = await continueOnPhone(desktop, phone);
  expect(detail.verificationId).toMatch(/^vf_/);
  expect(await handoffState(widget(desktop))).toBeNull();
  expect((await verdictOf(detail.verificationId, tenant.keys.secretTest)).verdict).toBe('approved');
  await context.close();
});
