import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
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
 * Also the widget's lazily loaded face detector: /widget/vendor/human.esm.js and its BlazeFace
 * model under /widget/models/, straight from the @vladmandic/human npm package (nothing is fetched
 * from anywhere else, and nothing loads until a selfie step is reached).
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

  // Resolves to dist/human.node.js; the browser build and models sit beside it in the package.
  const humanRoot = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
  const vendor: Record<string, Asset | null> = {
    '/widget/vendor/human.esm.js': load(path.join(humanRoot, 'dist', 'human.esm.js'), 'text/javascript; charset=utf-8'),
    '/widget/models/blazeface.json': load(path.join(humanRoot, 'models', 'blazeface.json'), 'application/json'),
    '/widget/models/blazeface.bin': load(path.join(humanRoot, 'models', 'blazeface.bin'), 'application/octet-stream'),
  };

  const serve = (asset: Asset | null, maxAge = 300) => async (ctx: import('koa').Context) => {
    if (!asset) return; // falls through to 404 not_found
    ctx.set('Cache-Control', `public, max-age=${maxAge}`);
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
  for (const [route, asset] of Object.entries(vendor)) router.get(route, routeName(`GET ${route}`), serve(asset, 86_400));
}
