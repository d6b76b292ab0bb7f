import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { SCREENS, state } from './env.js';

export interface RecordedEvent {
  type: string;
  detail: any;
  bubbles: boolean;
  composed: boolean;
  at: number;
}

let ip = 0;

/**
 * Opens a page on the API's own origin (a secure context: 127.0.0.1) that loads the widget from
 * /widget/service-widget.js, with the given attributes. Events are recorded at the document
 * (they must bubble and cross the shadow boundary to get there); upload attempts are timestamped
 * in the page.
 */
export async function openWidget(page: Page, attrs: Record<string, string | true>): Promise<void> {
  const { api } = state();
  await page.setExtraHTTPHeaders({ 'x-e2e-client': `203.0.113.${(ip++ % 250) + 1}` });
  await page.addInitScript(() => {
    const w = window as any;
    w.__events = [];
    w.__uploads = [];
    for (const type of ['service:complete', 'service:error', 'service:start', 'service:step', 'service:cancel']) {
      document.addEventListener(type, (e) => w.__events.push({ type, detail: (e as CustomEvent).detail, bubbles: e.bubbles, composed: e.composed, at: performance.now() }));
    }
    const send = XMLHttpRequest.prototype.send;
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (this: any, method: string, url: string | URL, ...rest: any[]) {
      this.__url = String(url);
      return (open as any).call(this, method, url, ...rest);
    };
    XMLHttpRequest.prototype.send = function (this: any, body?: any) {
      w.__uploads.push({ url: this.__url, at: performance.now() });
      return send.call(this, body);
    };
  });
  const attributes = Object.entries(attrs)
    .map(([k, v]) => (v === true ? k : `${k}="${v.replace(/"/g, '&quot;')}"`))
    .join(' ');
  await page.route(`${api}/e2e-host`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>widget e2e</title><script type="module" src="/widget/service-widget.js"></script></head>
        <body><main><service-widget ${attributes}></service-widget></main></body></html>`,
    }),
  );
  await page.goto(`${api}/e2e-host`);
  await expect(page.locator('service-widget')).toHaveAttribute('data-step', 'intro');
}

export const widget = (page: Page) => page.locator('service-widget');
export const part = (page: Page, name: string) => page.locator(`service-widget [part~="${name}"]`);

export async function step(page: Page, name: string): Promise<void> {
  await expect(widget(page)).toHaveAttribute('data-step', name);
}

export async function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as any).__events);
}

export async function uploads(page: Page): Promise<{ url: string; at: number }[]> {
  return page.evaluate(() => (window as any).__uploads);
}

/** Waits until an event of this type was recorded and returns it. */
export async function waitForEvent(page: Page, type: string): Promise<RecordedEvent> {
  await expect.poll(async () => (await events(page)).filter((e) => e.type === type).length, { timeout: 20_000 }).toBeGreaterThan(0);
  return (await events(page)).find((e) => e.type === type)!;
}

/** Takes a photo on the current capture step (camera live), then accepts it. */
export async function captureAndConfirm(page: Page): Promise<void> {
  await expect(part(page, 'capture-button')).toBeEnabled({ timeout: 15_000 });
  await part(page, 'capture-button').click();
  await part(page, 'confirm-button').click();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true });
}

/** Polls the verdict as an integrator's server would: with the secret key. */
export async function verdictOf(id: string, secret: string): Promise<any> {
  const { api } = state();
  for (let i = 0; i < 100; i++) {
    const r = await fetch(`${api}/v1/verify/${id}`, { headers: { Authorization: `Bearer ${secret}`, 'x-e2e-client': '198.18.0.1' } });
    const body = (await r.json()) as any;
    if (body.status === 'completed' || body.status === 'failed') return body;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error('no verdict');
}
