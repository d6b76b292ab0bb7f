import { DOCUMENT_GUIDANCE_STATES, type DocumentGuidance } from '@service/contract';
import { expect, type Locator, type Page } from '@playwright/test';

export { DOCUMENT_GUIDANCE_STATES, type DocumentGuidance };

/**
 * The widget's advice on a document step (`data-guidance`: searching, move_closer, hold_still,
 * too_dark, glare, ready), or null when no advice is shown (another step, a photo waiting to be
 * confirmed, or no reading yet).
 */
export async function guidanceOf(widget: Locator): Promise<DocumentGuidance | null> {
  const value = await widget.getAttribute('data-guidance');
  return value && (DOCUMENT_GUIDANCE_STATES as readonly string[]).includes(value) ? (value as DocumentGuidance) : null;
}

/** Waits until the widget gives this advice (the guidance reads the camera 5 to 10 times a second). */
export async function waitForGuidance(widget: Locator, advice: DocumentGuidance, timeoutMs = 15_000): Promise<void> {
  await expect(widget).toHaveAttribute('data-guidance', advice, { timeout: timeoutMs });
}

/**
 * Waits for the photo the widget took by itself (automatic capture once the document is `ready`
 * for about 0.8 s); `confirm` then accepts it.
 */
export async function waitForAutomaticCapture(widget: Locator, { confirm = true, timeoutMs = 20_000 } = {}): Promise<void> {
  await expect(widget.locator('[part~="still"]')).toBeVisible({ timeout: timeoutMs });
  if (confirm) await widget.locator('[part~="confirm-button"]').click();
}

export type { Page };
