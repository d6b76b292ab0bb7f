import type Router from '@koa/router';
import type { Context } from 'koa';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Logger } from '../http/logger.js';
import { route } from '../http/route.js';

/** Strict: scripts and styles from this origin only, no inline script, no framing, no third-party host. */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

function distDir(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const dir = path.join(path.dirname(require.resolve('@service/dashboard/package.json')), 'dist');
    return fs.existsSync(path.join(dir, 'index.html')) ? dir : null;
  } catch {
    return null;
  }
}

/**
 * GET /dashboard and every page under it (a single-page app: deep links such as
 * /dashboard/verifications/:id get index.html), and its hashed assets. /dashboard/api/* is left
 * to the API (an unknown API path stays a JSON 404).
 */
export function registerDashboardApp(router: Router, logger: Logger): void {
  const dir = distDir();
  if (!dir) logger.warn('dashboard not built: GET /dashboard will answer 404 (run npm run build)');
  const index = dir ? fs.readFileSync(path.join(dir, 'index.html')) : null;

  const security = (ctx: Context) => {
    ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
  };

  const page = (ctx: Context) => {
    if (!index) return;
    security(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = index;
  };

  route(router, 'GET /dashboard', page);
  route(router, 'GET /dashboard/{*rest}', (ctx) => {
    const rest = ctx.path.slice('/dashboard/'.length);
    if (rest === 'api' || rest.startsWith('api/')) return;
    if (!dir) return;
    const asset = /^(assets|icons)\/[A-Za-z0-9._-]+$/.exec(rest);
    if (asset) {
      const file = path.join(dir, rest);
      if (!fs.existsSync(file)) return;
      security(ctx);
      // Vite names assets by content hash; icons are small and fixed.
      ctx.set('Cache-Control', rest.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      ctx.body = fs.readFileSync(file);
      return;
    }
    page(ctx);
  });
}
