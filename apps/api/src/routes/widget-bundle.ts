import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';
import type { Logger } from '../http/logger.js';
import { route } from '../http/route.js';

interface Asset {
  body: Buffer;
  etag: string;
  hash: string;
  type: string;
}

const hashOf = (body: Buffer) => createHash('sha256').update(body).digest('base64url');

function asset(body: Buffer, type: string): Asset {
  const hash = hashOf(body);
  return { body, etag: `"${hash.slice(0, 27)}"`, hash: hash.slice(0, 12).replace(/[-_]/g, 'x'), type };
}

function load(file: string, type: string): Asset | null {
  try {
    return asset(fs.readFileSync(file), type);
  } catch {
    return null;
  }
}

/** `name.ext` -> `name.<hash>.ext`: a new file gets a new URL, so every one can be cached for good. */
const hashedName = (name: string, a: Asset) => name.replace(/(\.[a-z]+)$/, `.${a.hash}$1`);

/** The face models the widget's vision worker uses, straight from the @vladmandic/human package. */
const VISION_MODELS = ['blazeface', 'facemesh'] as const;

/**
 * Vision files under content-hashed names: the library's browser build and each model's graph
 * (its weights manifest rewritten to the hashed weight file), listed in a small manifest the
 * widget reads first. Nothing comes from a third-party host.
 */
function visionFiles(humanRoot: string, wasmDir: string): { manifest: Asset; files: Map<string, Asset> } | null {
  const files = new Map<string, Asset>();
  const names: Record<string, string> = {};
  const lib = load(path.join(humanRoot, 'dist', 'human.esm.js'), 'text/javascript; charset=utf-8');
  if (!lib) return null;
  const libName = hashedName('human.esm.js', lib);
  names['human.esm.js'] = libName;
  files.set(libName, lib);
  for (const model of VISION_MODELS) {
    const weights = load(path.join(humanRoot, 'models', `${model}.bin`), 'application/octet-stream');
    const graphFile = path.join(humanRoot, 'models', `${model}.json`);
    if (!weights || !fs.existsSync(graphFile)) return null;
    const weightsName = hashedName(`${model}.bin`, weights);
    files.set(weightsName, weights);
    const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as { weightsManifest: { paths: string[] }[] };
    for (const group of graph.weightsManifest) group.paths = group.paths.map(() => weightsName);
    const graphAsset = asset(Buffer.from(JSON.stringify(graph)), 'application/json');
    const graphName = hashedName(`${model}.json`, graphAsset);
    names[`${model}.json`] = graphName;
    files.set(graphName, graphAsset);
  }
  // The WebAssembly backend's binaries (the library's own tfjs version), by their hashed names.
  for (const wasm of WASM_FILES) {
    const a = load(path.join(wasmDir, wasm), 'application/wasm');
    if (!a) return null;
    const wasmName = hashedName(wasm, a);
    names[wasm] = wasmName;
    files.set(wasmName, a);
  }
  return { manifest: asset(Buffer.from(JSON.stringify({ files: names })), 'application/json'), files };
}

const WASM_FILES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];

/**
 * GET /widget/service-widget.js: the built `<service-widget>` as one ES module (and its source
 * map), read once at start, with its lazily loaded parts under GET /widget/chunks/<name>-<hash>.js
 * (languages, liveness, the handoff screen, the frame worker; immutable). Cross-origin pages load it as a module script, which CORS allows.
 * The widget's lazily loaded on-device vision: GET /widget/vision/manifest.json (short cache)
 * names the files under /widget/vision/<name>.<hash>.<ext> (immutable, cached for a year).
 */
export function registerWidgetBundle(router: Router, logger: Logger): void {
  const require = createRequire(import.meta.url);
  let js: Asset | null = null;
  let map: Asset | null = null;
  const chunks = new Map<string, Asset>();
  try {
    const file = require.resolve('@service/widget/service-widget.js');
    js = load(file, 'text/javascript; charset=utf-8');
    map = load(`${file}.map`, 'application/json');
    // The lazily loaded parts, beside the bundle under names that carry their content hash.
    const dir = path.join(path.dirname(file), 'chunks');
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const type = name.endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8';
      const a = /^[\w.-]+\.js(\.map)?$/.test(name) ? load(path.join(dir, name), type) : null;
      if (a) chunks.set(name, a);
    }
  } catch {
    /* not built */
  }
  if (!js) logger.warn('widget bundle not built: GET /widget/service-widget.js will answer 404 (run npm run build)');

  // Resolves to dist/human.node.js; the browser build and models sit beside it in the package.
  const humanRoot = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
  const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  const vision = visionFiles(humanRoot, wasmDir);
  if (!vision) logger.warn('widget vision files missing: the widget runs without on-device face guidance');

  const serve =
    (a: Asset | null, cache = 'public, max-age=300') =>
    async (ctx: Context) => {
      if (!a) return; // falls through to 404 not_found
      ctx.set('Cache-Control', cache);
      ctx.set('ETag', a.etag);
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      if (ctx.get('If-None-Match') === a.etag) {
        ctx.status = 304;
        return;
      }
      ctx.type = a.type;
      ctx.body = a.body;
    };
  route(router, 'GET /widget/service-widget.js', serve(js));
  route(router, 'GET /widget/service-widget.js.map', serve(map));
  route(router, 'GET /widget/chunks/:file', async (ctx, next) => {
    const chunk = chunks.get((ctx.params as { file: string }).file) ?? null;
    if (!chunk) return next();
    await serve(chunk, 'public, max-age=31536000, immutable')(ctx);
  });
  route(router, 'GET /widget/vision/manifest.json', serve(vision?.manifest ?? null));
  route(router, 'GET /widget/vision/:file', async (ctx, next) => {
    const file = vision?.files.get((ctx.params as { file: string }).file) ?? null;
    if (!file) return next();
    await serve(file, 'public, max-age=31536000, immutable')(ctx);
  });
}
