import { expect, test } from '@playwright/test';
import { watchCsp } from '../support/csp.js';
import { state } from '../support/env.js';
import { captureAndConfirm, screenshot } from '../support/widget-page.js';

test('the demo page runs the widget under a strict CSP and shows events, then the verdict read server-side', async ({ page }) => {
  const { api } = state();
  await page.setExtraHTTPHeaders({ 'x-e2e-client': '192.0.2.99' });
  const violations = await watchCsp(page);
  const response = await page.goto(`${api}/demo`);
  const csp = response!.headers()['content-security-policy']!;
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain("'unsafe-eval'"); // 'wasm-unsafe-eval' allows WebAssembly only

  const config = await (await page.request.get(`${api}/demo/config.json`)).json();
  expect(Object.keys(config).sort()).toEqual(['publishable', 'publishableTest', 'requestId']); // every JSON body carries requestId
  expect(JSON.stringify(config)).not.toContain('qv_sec');

  const w = page.locator('service-widget');
  await expect(w).toHaveAttribute('data-step', 'intro');
  await page.locator('service-widget [part="start-button"]').click();
  await captureAndConfirm(page);
  await captureAndConfirm(page);
  // The lazily loaded face detector works under this policy too.
  await expect(page.locator('service-widget figure[data-role="selfie"]')).toHaveAttribute('data-checked', 'true', { timeout: 30_000 });
  await page.locator('service-widget [part="submit-button"]').click();
  await expect(page.locator('#events li')).toHaveCount(1);
  await expect(page.locator('#events li').first()).toContainText('service:complete');
  await expect(page.locator('#verdict')).toContainText('"verdict": "approved"', { timeout: 20_000 });
  await screenshot(page, '16-demo-page');
  // The widget triggers nothing: its frame worker (worker-src blob:) and the face models'
  // WebAssembly ('wasm-unsafe-eval') are the policy's only grants beyond 'self'.
  violations.expectNone();
});
