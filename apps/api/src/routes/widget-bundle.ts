import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import type { Logger } from '../http/logger.js';
import { routeName } from './route-name.js';

interface Asset {
  body: Buffer;
  etag: string;
  type: string;
}

function load(file: string, type: string): Asset | null {
  try {
    const body = fs.readFileSync(file);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, type };
  } catch {
    return null;
  }
}

/**
 * GET /widget/service-widget.js: the built `<service-widget>` as one ES module (and its source
 * map), read once at start. Cross-origin pages load it as a module script, which CORS allows.
 */
export function registerWidgetBundle(router: Router, logger: Logger): void {
  const require = createRequire(import.meta.url);
  let js: Asset | null = null;
  let map: Asset | null = null;
  try {
    const file = require.resolve('@service/widget/service-widget.js');
    js = load(file, 'text/javascript; charset=utf-8');
    map = load(`${file}.map`, 'application/json');
  } catch {
    /* not built */
  }
  if (!js) logger.warn('widget bundle not built: GET /widget/service-widget.js will answer 404 (run npm run build)');

  const serve = (asset: Asset | null) => async (ctx: import('koa').Context) => {
    if (!asset) return; // falls through to 404 not_found
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('ETag', asset.etag);
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    if (ctx.get('If-None-Match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = asset.type;
    ctx.body = asset.body;
  };
  router.get('/widget/service-widget.js', routeName('GET /widget/service-widget.js'), serve(js));
  router.get('/widget/service-widget.js.map', routeName('GET /widget/service-widget.js.map'), serve(map));
}
