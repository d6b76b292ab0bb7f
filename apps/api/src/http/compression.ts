import zlib from 'node:zlib';
import compress from 'koa-compress';

/**
 * Brotli or gzip, as the client accepts, for compressible responses (JavaScript, JSON, HTML, CSS)
 * over 1 kB (decisions.md). Dynamic responses use fast settings (Brotli quality 4, gzip level 5):
 * a few hundred microseconds for a JSON body, most of the size gain of the slow ones. JPEG and
 * other already-compressed types are left alone.
 */
export function compression() {
  return compress({
    threshold: 1024,
    br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    gzip: { level: 5 },
    deflate: false,
  });
}
