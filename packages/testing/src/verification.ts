import { TEST_MODE_FORCED_VERDICTS, type Verdict } from '@service/contract';
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Test-mode names (the `full-name` attribute) that force each verdict: with a `qv_pubt_` key the
 * pipeline is skipped and this verdict is returned (any other name runs the real pipeline).
 */
export const FORCE_VERDICT = Object.fromEntries(
  Object.entries(TEST_MODE_FORCED_VERDICTS).map(([name, verdict]) => [verdict, name.replace(/\b\w/g, (c) => c.toUpperCase())]),
) as Readonly<Record<Verdict, string>>;

export interface CompleteDetail {
  verificationId: string;
  status: 'queued' | 'processing' | 'completed';
}

const part = (widget: Locator, name: string) => widget.locator(`[part~="${name}"]`);

/**
 * Takes `<service-widget>` (the first on the page, or `widget`) through a whole verification with
 * the fake camera installed: start, each capture step, the liveness step if present, review and
 * submit; resolves to `service:complete`'s detail (rejects on `service:error`).
 */
export async function completeVerification(
  page: Page,
  widget: Locator = page.locator('service-widget'),
  timeoutMs = 180_000,
): Promise<CompleteDetail> {
  const outcome = widget.evaluate(
    (el, ms) =>
      new Promise<{ ok: boolean; detail: unknown }>((resolve) => {
        el.addEventListener('service:complete', (e) => resolve({ ok: true, detail: (e as CustomEvent).detail }), { once: true });
        el.addEventListener('service:error', (e) => resolve({ ok: false, detail: (e as CustomEvent).detail }), { once: true });
        setTimeout(() => resolve({ ok: false, detail: { code: 'timeout' } }), ms);
      }),
    timeoutMs,
  );
  await part(widget, 'start-button').click();
  for (let i = 0; i < 20; i++) {
    const step = await widget.getAttribute('data-step');
    if (step === 'document-front' || step === 'document-back' || step === 'selfie') {
      // A document step may take the photo by itself (automatic capture): then only confirm is left.
      const confirm = part(widget, 'confirm-button');
      await expect(confirm.or(part(widget, 'capture-button').and(widget.locator('button:enabled')))).toBeVisible({ timeout: 30_000 });
      if (!(await confirm.isVisible()))
        await part(widget, 'capture-button')
          .click()
          .catch(() => {});
      await confirm.click();
      await expect(widget).not.toHaveAttribute('data-step', step, { timeout: 30_000 });
    } else if (step === 'liveness') {
      await expect(part(widget, 'start-button')).toBeEnabled({ timeout: 30_000 });
      await part(widget, 'start-button').click();
      await expect(widget).not.toHaveAttribute('data-step', 'liveness', { timeout: timeoutMs });
    } else if (step === 'review') {
      await part(widget, 'submit-button').click();
      break;
    } else if (step === 'error' || step === 'done') break;
    else await page.waitForTimeout(100);
  }
  const result = await outcome;
  if (!result.ok) throw new Error(`service:error ${JSON.stringify(result.detail)}`);
  return result.detail as CompleteDetail;
}
