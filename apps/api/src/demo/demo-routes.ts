import type { Context } from 'koa';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import { VERIFICATION_ID_PATTERN } from '@service/contract';
import type { DemoCredentials } from './demo-tenant.js';
import { route } from '../http/route.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Demo assets live in src/demo/public and are copied next to the build. */
const PUBLIC = path.join(here, 'public');

/**
 * A strict policy: no inline script, no eval; the widget works under it. The two grants the
 * widget's on-device vision needs: its frame worker starts from a Blob URL (`worker-src blob:`)
 * and compiles the face models' WebAssembly (`'wasm-unsafe-eval'`, which allows no JavaScript eval).
 */
export const DEMO_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  'worker-src blob:',
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The demo page of a development start: embeds the widget with the demo tenant's publishable keys,
 * shows the events as they arrive, then the verdict, which this server fetches from the API with
 * the secret key (the secret never reaches the browser).
 */
export function registerDemo(router: Router, credentials: () => DemoCredentials | null, apiBase: () => string): void {
  const page = (file: string, type: string) => async (ctx: Context) => {
    if (!credentials()) return;
    ctx.set('Content-Security-Policy', DEMO_CSP);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = type;
    ctx.body = fs.readFileSync(path.join(PUBLIC, file));
  };
  route(router, 'GET /demo', page('index.html', 'text/html; charset=utf-8'));
  route(router, 'GET /demo/demo.js', page('demo.js', 'text/javascript; charset=utf-8'));
  route(router, 'GET /demo/demo.css', page('demo.css', 'text/css; charset=utf-8'));

  // Publishable keys only: they are meant for browsers.
  route(router, 'GET /demo/config.json', (ctx) => {
    const creds = credentials();
    if (!creds) return;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { publishable: creds.keys.publishable, publishableTest: creds.keys.publishableTest };
  });

  // The integrator's server side: reads the verdict with the secret key.
  route(router, 'GET /demo/verifications/:id', async (ctx) => {
    const id = ctx.params.id!;
    const creds = credentials();
    if (!creds || !VERIFICATION_ID_PATTERN.test(id)) return;
    const mode = ctx.query.mode === 'live' ? 'live' : 'test';
    const res = await fetch(`${apiBase()}/v1/verify/${id}`, {
      headers: { Authorization: `Bearer ${mode === 'live' ? creds.keys.secret : creds.keys.secretTest}` },
    });
    ctx.status = res.status;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await res.json();
  });
}
