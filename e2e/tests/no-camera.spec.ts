import { expect, test } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS, state } from '../support/env.js';
import { openWidget, part, screenshot, step, waitForEvent } from '../support/widget-page.js';

// Its own browser: a fake media device list with no camera at all.
test.use({
  launchOptions: {
    executablePath: CHROMIUM,
    args: [...CHROMIUM_FLAGS, '--use-fake-device-for-media-stream=device-count=0', '--use-fake-ui-for-media-stream'],
  },
});

test('no camera: camera_unavailable, told apart from a denial', async ({ page }) => {
  await openWidget(page, { 'publishable-key': state().tenant.keys.publishableTest });
  await part(page, 'start-button').click();
  const err = await waitForEvent(page, 'service:error');
  expect(err.detail.code).toBe('camera_unavailable');
  await step(page, 'error');
  await expect(page.locator('service-widget [data-error-code="camera_unavailable"]')).toBeVisible();
  await screenshot(page, '13-no-camera');
});
