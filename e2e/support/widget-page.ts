import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
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
      document.addEventListener(type, (e) =>
        w.__events.push({ type, detail: (e as CustomEvent).detail, bubbles: e.bubbles, composed: e.composed, at: performance.now() }),
      );
    }
    // Long Tasks API: every main-thread task over 50 ms, with when the camera first went live.
    w.__longTasks = [];
    w.__cameraLiveAt = null;
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    } catch {
      /* no Long Tasks API */
    }
    // Long Animation Frames: which script a long task ran (for diagnosing a budget overrun).
    w.__loaf = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as any[])
          w.__loaf.push({
            start: e.startTime,
            duration: e.duration,
            blocking: e.blockingDuration,
            scripts: (e.scripts ?? []).map(
              (s: any) => `${s.invoker} ${s.sourceFunctionName} ${s.sourceURL}:${s.sourceCharPosition} ${Math.round(s.duration)}ms`,
            ),
          });
      }).observe({ type: 'long-animation-frame', buffered: true });
    } catch {
      /* no LoAF API */
    }
    // Every reading the page asks of the widget's frame worker (the guidance's rate).
    w.__guideReads = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: any, ...rest: any[]) {
      if (message && message.type === 'guide') w.__guideReads.push(performance.now());
      return (post as any).call(this, message, ...rest);
    };
    const gum = navigator.mediaDevices?.getUserMedia?.bind(navigator.mediaDevices);
    if (gum) {
      navigator.mediaDevices.getUserMedia = async (c?: MediaStreamConstraints) => {
        const stream = await gum(c);
        w.__cameraLiveAt ??= performance.now();
        return stream;
      };
    }
    const send = XMLHttpRequest.prototype.send;
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (this: any, method: string, url: string | URL, ...rest: any[]) {
      this.__url = String(url);
      // The outcome is stamped by listeners added here, before the widget sets its own handlers
      // (it opens first), so they run first: the stamp is taken before the widget starts waiting.
      if (!this.__stamped) {
        this.__stamped = true;
        for (const type of ['load', 'error', 'timeout', 'abort'])
          this.addEventListener(type, () => {
            if (this.__entry && this.__entry.end === undefined) this.__entry.end = performance.now();
          });
      }
      return (open as any).call(this, method, url, ...rest);
    };
    XMLHttpRequest.prototype.send = function (this: any, body?: any) {
      // `at`: the attempt is sent; `end`: its outcome (load, error, timeout, abort) reached the
      // page. The back-off wait is the next attempt's `at` minus this one's `end`.
      const entry: { url: string; at: number; end?: number } = { url: this.__url, at: performance.now() };
      this.__entry = entry;
      w.__uploads.push(entry);
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

export async function uploads(page: Page): Promise<{ url: string; at: number; end?: number }[]> {
  return page.evaluate(() => (window as any).__uploads);
}

/** Waits until an event of this type was recorded and returns it. */
export async function waitForEvent(page: Page, type: string): Promise<RecordedEvent> {
  await expect.poll(async () => (await events(page)).filter((e) => e.type === type).length, { timeout: 20_000 }).toBeGreaterThan(0);
  return (await events(page)).find((e) => e.type === type)!;
}

/**
 * Takes a photo on the current capture step (camera live), then accepts it. On a document step
 * the widget may have taken it by itself (automatic capture once the document is steady): then
 * only the confirmation is left.
 */
export async function captureAndConfirm(page: Page): Promise<void> {
  const confirm = part(page, 'confirm-button');
  const capture = part(page, 'capture-button');
  await expect(confirm.or(capture.and(page.locator(':enabled')))).toBeVisible({ timeout: 15_000 });
  if (!(await confirm.isVisible())) await capture.click().catch(() => {});
  await confirm.click();
}

/**
 * The longest main-thread task (Long Tasks API, ms) since the camera first went live; 0 when
 * none over 50 ms was seen. The budget is 100 ms.
 */
export async function longestTaskSinceCamera(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = window as any;
    const since = w.__cameraLiveAt ?? Infinity;
    return Math.max(0, ...w.__longTasks.filter((t: any) => t.start + t.duration > since).map((t: any) => t.duration));
  });
}

/**
 * The main-thread budget: no task over 100 ms once the camera is live, measured in the page with
 * the Long Tasks API (figures logged; the longest frame's scripts are named on failure). A Long
 * Task is wall-clock time, so on a machine running far more work than it has cores a 10 ms task
 * reads as hundreds: the assertion holds only when the load average is under 1.5 per core, and
 * the figure is logged either way (see docs/testing.md).
 */
export async function expectMainThreadBudget(page: Page, flow: string, budgetMs = 100): Promise<number> {
  const longest = await longestTaskSinceCamera(page);
  const load = os.loadavg()[0]! / os.cpus().length;
  const culprits = await page.evaluate(
    (min) => (window as any).__loaf.filter((l: any) => l.blocking > min).map((l: any) => l.scripts.join(', ')),
    budgetMs - 50,
  );
  console.log(`[budget] ${flow}: longest main-thread task after camera live ${Math.round(longest)} ms (load ${load.toFixed(1)}/core)`);
  // CI asserts whatever the load. Elsewhere a machine running far more than it has cores reads a
  // short task as a long one: there the figure is kept as an annotation of the test (the report
  // shows it), never dropped in silence.
  if (process.env.CI === 'true' || load <= 1.5) {
    expect(longest, `long tasks: ${culprits.join(' | ')}`).toBeLessThanOrEqual(budgetMs);
  } else {
    test.info().annotations.push({
      type: 'main-thread budget not asserted',
      description: `${flow}: longest task ${Math.round(longest)} ms against ${budgetMs} ms, at load ${load.toFixed(1)} per core (over 1.5; CI asserts it)`,
    });
  }
  return longest;
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

/** Presses Tab until the widget control with this part has focus, then Enter. Fails if it is unreachable. */
export async function pressByKeyboard(page: Page, partName: string): Promise<void> {
  for (let i = 0; i < 14; i++) {
    const focused = await page.evaluate(
      () => document.querySelector('service-widget')!.shadowRoot!.activeElement?.getAttribute('part') ?? null,
    );
    if (focused === partName) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`${partName} is not reachable with Tab`);
}

/** Polls the verdict with the secret key for as long as the pipeline needs (live mode runs it all). */
export async function verdictWithin(id: string, secret: string, ms: number): Promise<any> {
  const { api } = state();
  const until = Date.now() + ms;
  for (;;) {
    const r = await fetch(`${api}/v1/verify/${id}`, { headers: { Authorization: `Bearer ${secret}`, 'x-e2e-client': '198.18.0.2' } });
    const body = (await r.json()) as any;
    if (body.status === 'completed' || body.status === 'failed' || Date.now() > until) return body;
    await new Promise((res) => setTimeout(res, 500));
  }
}

/** The waits between consecutive attempts (ms): each attempt's send time minus the previous one's end. */
export function backoffWaits(attempts: { at: number; end?: number }[]): number[] {
  return attempts.slice(1).map((a, i) => a.at - attempts[i]!.end!);
}

/**
 * Frames the widget's preview `<video>` presented per second over `ms`, counted in the page with
 * `requestVideoFrameCallback` (what the user sees, not what the camera sends).
 */
export async function previewFps(page: Page, ms = 2_000): Promise<number> {
  return page.evaluate(
    (ms) =>
      new Promise<number>((resolve, reject) => {
        const video = document.querySelector('service-widget')?.shadowRoot?.querySelector('video') as
          (HTMLVideoElement & { requestVideoFrameCallback(cb: () => void): number }) | null;
        if (!video) return reject(new Error('no preview video'));
        let frames = 0;
        const start = performance.now();
        const count = () => {
          frames++;
          if (performance.now() - start < ms) video.requestVideoFrameCallback(count);
          else resolve((frames * 1000) / (performance.now() - start));
        };
        video.requestVideoFrameCallback(count);
      }),
    ms,
  );
}

/** Guidance readings per second asked of the frame worker over the last `ms` (each waits for the one before). */
export async function guidanceRate(page: Page, ms = 3_000): Promise<number> {
  await page.waitForTimeout(ms);
  return page.evaluate((ms) => {
    const reads: number[] = (window as any).__guideReads;
    const now = performance.now();
    return (reads.filter((t) => t > now - ms).length * 1000) / ms;
  }, ms);
}
