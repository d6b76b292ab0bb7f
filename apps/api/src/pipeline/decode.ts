import { LIMITS } from '@service/contract';
import sharp, { type Sharp } from 'sharp';
import { binariseLocally } from './binarise.js';

/**
 * The one place the pipeline decodes an uploaded image. One policy for every stage:
 * - corrupt data fails (`failOn: 'warning'`: a JPEG cut short is corrupt too), never half-decoded pixels in one stage and an
 *   exception in another;
 * - the header's pixel count is checked against the contract's limit before decoding;
 * - EXIF orientation is applied first (phones store portrait photos as orientation 6 or 8), so
 *   every crop and extract works on the image as the person saw it;
 * - the image is decoded once per run, downscaled on decode to at most DECODE_MAX_SIDE, and the
 *   same pixels feed quality, faces, MRZ and text recognition.
 */
export const DECODE_MAX_SIDE = 2048;

/** Width/height ratios beyond this are no photo of a document or a face (e.g. 763 x 65000). */
export const MAX_ASPECT_RATIO = 4;

export interface DecodedImage {
  /** Oriented size of the image as it was taken. */
  width: number;
  height: number;
  /** Oriented sRGB pixels, 3 channels, long side at most DECODE_MAX_SIDE. */
  pixels: Buffer;
  pixelWidth: number;
  pixelHeight: number;
}

/** Why an image cannot be used at all. */
export type DecodeProblem = 'corrupt' | 'too_many_pixels' | 'bad_shape';

export class ImageDecodeError extends Error {
  constructor(readonly problem: DecodeProblem) {
    super(`image unusable: ${problem}`);
  }
}

const SHARP_POLICY = { failOn: 'warning', limitInputPixels: LIMITS.imageMaxPixels } as const;

/** Decodes one upload under the policy above; throws ImageDecodeError (never a raw sharp error). */
export async function decodeImage(bytes: Buffer, maxSide = DECODE_MAX_SIDE): Promise<DecodedImage> {
  let meta;
  try {
    meta = await sharp(bytes, SHARP_POLICY).metadata();
  } catch {
    throw new ImageDecodeError('corrupt');
  }
  const rawW = meta.width ?? 0;
  const rawH = meta.height ?? 0;
  if (!rawW || !rawH) throw new ImageDecodeError('corrupt');
  if (rawW * rawH > LIMITS.imageMaxPixels) throw new ImageDecodeError('too_many_pixels');
  if (Math.max(rawW, rawH) / Math.min(rawW, rawH) > MAX_ASPECT_RATIO) throw new ImageDecodeError('bad_shape');
  const turned = (meta.orientation ?? 1) >= 5;
  try {
    const { data, info } = await sharp(bytes, SHARP_POLICY)
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new ImageDecodeError('corrupt');
    return {
      width: turned ? rawH : rawW,
      height: turned ? rawW : rawH,
      pixels: data,
      pixelWidth: info.width,
      pixelHeight: info.height,
    };
  } catch (err) {
    throw err instanceof ImageDecodeError ? err : new ImageDecodeError('corrupt');
  }
}

/** A sharp pipeline over decoded pixels (no second decode of the upload). */
export function fromDecoded(img: DecodedImage): Sharp {
  return sharp(img.pixels, { raw: { width: img.pixelWidth, height: img.pixelHeight, channels: 3 } });
}

/** Accepts decoded pixels or bytes (benchmarks and tests pass bytes): decodes only when needed. */
export async function asDecoded(input: Buffer | DecodedImage): Promise<DecodedImage> {
  return Buffer.isBuffer(input) ? decodeImage(input) : input;
}

/** A region relative to the image (0-1 fractions). */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A grey PNG of a region, scaled so its width is `width` px at most (`minWidth` at least): text
 * recognition always sees a bounded image whatever was uploaded.
 */
export async function greyRegionPng(
  img: DecodedImage,
  region: Region = { left: 0, top: 0, width: 1, height: 1 },
  opts: { maxWidth: number; minWidth?: number; binarise?: number; rotateDegrees?: number; blank?: Region },
): Promise<Buffer> {
  const W = img.pixelWidth;
  const H = img.pixelHeight;
  const left = Math.max(0, Math.min(W - 1, Math.floor(region.left * W)));
  const top = Math.max(0, Math.min(H - 1, Math.floor(region.top * H)));
  const width = Math.max(1, Math.min(W - left, Math.round(region.width * W)));
  const height = Math.max(1, Math.min(H - top, Math.round(region.height * H)));
  // The portrait is painted over where it lies in the photo, then the whole is levelled.
  let source = opts.blank ? await paintWhite(img, opts.blank) : img;
  if (opts.rotateDegrees) source = await straighten(source, opts.rotateDegrees);
  const base = fromDecoded(source);
  const target = Math.max(opts.minWidth ?? 1, Math.min(opts.maxWidth, width));
  let p = base.extract({ left, top, width, height }).resize({ width: target }).greyscale();
  if (opts.binarise !== undefined) {
    // Ink against its surroundings (binarise.ts); a window of about two MRZ character heights.
    const { data, info } = await p.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const ink = binariseLocally(data, info.width, info.height, Math.round(info.width / 25), opts.binarise);
    p = sharp(ink, { raw: { width: info.width, height: info.height, channels: 1 } });
  }
  // Raw pixels carry no density; Tesseract then guesses 25 dpi and warns. 72 is what a JPEG without one reports.
  return p.withMetadata({ density: 72 }).png({ compressionLevel: 1 }).toBuffer();
}

/** A region painted white (the portrait: its texture reads as junk letters beside the fields). */
async function paintWhite(img: DecodedImage, b: Region): Promise<DecodedImage> {
  const W = img.pixelWidth;
  const H = img.pixelHeight;
  const bl = Math.max(0, Math.floor(b.left * W));
  const bt = Math.max(0, Math.floor(b.top * H));
  const bw = Math.max(1, Math.min(W - bl, Math.round(b.width * W)));
  const bh = Math.max(1, Math.min(H - bt, Math.round(b.height * H)));
  const white = await sharp({ create: { width: bw, height: bh, channels: 3, background: '#ffffff' } })
    .raw()
    .toBuffer();
  const pixels = await fromDecoded(img)
    .composite([{ input: white, raw: { width: bw, height: bh, channels: 3 }, left: bl, top: bt }])
    .removeAlpha()
    .raw()
    .toBuffer();
  return { ...img, pixels };
}

/**
 * The image turned by `degrees` (sharp's sign: positive is clockwise) about its centre, cut back
 * to its own frame: same size and scale, so regions keep their meaning.
 */
export async function straighten(img: DecodedImage, degrees: number): Promise<DecodedImage> {
  const W = img.pixelWidth;
  const H = img.pixelHeight;
  const { data, info } = await fromDecoded(img).rotate(degrees, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  const dx = Math.max(0, Math.floor((info.width - W) / 2));
  const dy = Math.max(0, Math.floor((info.height - H) / 2));
  const cut = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .extract({ left: dx, top: dy, width: Math.min(W, info.width), height: Math.min(H, info.height) })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: img.width, height: img.height, pixels: cut.data, pixelWidth: cut.info.width, pixelHeight: cut.info.height };
}
