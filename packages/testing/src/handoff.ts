import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { completeVerification, type CompleteDetail } from './verification.js';

/**
 * The phone link of a desktop widget with `cross-device`: presses "Continue on your phone" when
 * it is offered (the intro, or a camera error) and returns the link its screen shows (the one its
 * QR code holds).
 */
export async function handoffLink(desktop: Page, widget: Locator = desktop.locator('service-widget')): Promise<string> {
  if ((await widget.getAttribute('data-step')) !== 'handoff') await widget.locator('[part~="handoff-button"]').click();
  await expect(widget).toHaveAttribute('data-step', 'handoff', { timeout: 20_000 });
  const link = widget.locator('[part~="handoff-link"]');
  await expect(link).not.toHaveValue('', { timeout: 20_000 });
  return link.inputValue();
}

/**
 * The desktop's view of its phone: `waiting` for it, or `in_progress` once it opened the link and
 * pressed Start; null when the desktop shows no link (before, or once the phone submitted).
 */
export async function handoffState(widget: Locator): Promise<'waiting' | 'in_progress' | null> {
  const status = widget.locator('[part~="handoff-status"]');
  if ((await status.count()) === 0) return null;
  return (await status.getAttribute('data-handoff-state')) as 'waiting' | 'in_progress' | null;
}

/**
 * The whole "continue on a phone" from your own suite: the desktop's link opened in `phone` (a
 * page of another browser context, with `installFakeCamera` done on it), the verification taken
 * through there, and the desktop's `service:complete` detail returned (it arrives within a few
 * seconds of the phone's submit).
 */
export async function continueOnPhone(
  desktop: Page,
  phone: Page,
  opts: { desktopWidget?: Locator; timeoutMs?: number } = {},
): Promise<CompleteDetail> {
  const widget = opts.desktopWidget ?? desktop.locator('service-widget');
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const done = widget.evaluate(
    (el, ms) =>
      new Promise<{ ok: boolean; detail: unknown }>((resolve) => {
        el.addEventListener('service:complete', (e) => resolve({ ok: true, detail: (e as CustomEvent).detail }), { once: true });
        el.addEventListener('service:error', (e) => resolve({ ok: false, detail: (e as CustomEvent).detail }), { once: true });
        setTimeout(() => resolve({ ok: false, detail: { code: 'timeout' } }), ms);
      }),
    timeoutMs,
  );
  const url = await handoffLink(desktop, widget);
  await phone.goto(url);
  await completeVerification(phone, phone.locator('service-widget'), timeoutMs);
  const result = await done;
  if (!result.ok) throw new Error(`desktop service:error ${JSON.stringify(result.detail)}`);
  return result.detail as CompleteDetail;
}
