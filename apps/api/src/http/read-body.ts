import type { Context } from 'koa';
import { ApiError, invalidBody } from './api-error.js';

const JSON_LIMIT_BYTES = 64 * 1024;

async function readAll(ctx: Context, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      stopReading(ctx);
      throw new ApiError('invalid_body', 'Request body too large');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON object body; an empty body is `{}`. Anything else that is not an object is 400. */
export async function readJsonObject(ctx: Context): Promise<Record<string, unknown>> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > JSON_LIMIT_BYTES) {
    stopReading(ctx);
    throw new ApiError('invalid_body', 'Request body too large');
  }
  const raw = await readAll(ctx, JSON_LIMIT_BYTES);
  if (raw.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('invalid_body', 'Body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_body', 'Body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * Stop taking bytes from a request we have already answered: the connection is closed after the
 * response instead of draining (Node would otherwise read and discard the rest).
 */
export function stopReading(ctx: Context): void {
  ctx.set('Connection', 'close');
  const req = ctx.req;
  const socket = req.socket;
  req.pause();
  ctx.res.once('finish', () => {
    if (!req.complete) setTimeout(() => socket?.destroy(), 50).unref();
  });
}

const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * Streams a JPEG body: rejects a declared length over the cap before reading, checks the
 * signature on the first bytes, and cuts the stream at the cap without reading the rest.
 */
export async function readJpegBody(ctx: Context, minBytes: number, maxBytes: number): Promise<Buffer> {
  const declared = ctx.get('Content-Length');
  if (declared && Number(declared) > maxBytes) {
    stopReading(ctx);
    throw invalidBody('image_too_large', `Image exceeds ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let signatureChecked = false;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (!signatureChecked && size >= JPEG_SIGNATURE.length) {
      signatureChecked = true;
      const head = Buffer.concat(chunks).subarray(0, JPEG_SIGNATURE.length);
      if (!head.equals(JPEG_SIGNATURE)) {
        stopReading(ctx);
        throw invalidBody('not_a_jpeg', 'Body is not a JPEG image');
      }
    }
    if (size > maxBytes) {
      stopReading(ctx);
      throw invalidBody('image_too_large', `Image exceeds ${maxBytes} bytes`);
    }
  }
  const body = Buffer.concat(chunks, size);
  // A body shorter than the signature is judged on the bytes it has: empty or a prefix is too small.
  const head = body.subarray(0, JPEG_SIGNATURE.length);
  if (!JPEG_SIGNATURE.subarray(0, head.length).equals(head)) throw invalidBody('not_a_jpeg', 'Body is not a JPEG image');
  if (size < minBytes) throw invalidBody('image_too_small', `Image is under ${minBytes} bytes`);
  return body;
}
