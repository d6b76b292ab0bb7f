import { LIMITS } from '@service/contract';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { binariseLocally } from './binarise.js';
import { columnsAt, portraitColumns, type PageBox, type PortraitColumns } from '../locate/portrait-edges.js';

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

/** Each decoded image's grey pixels, converted on first request (`greyOf`). */
const greys = new WeakMap<DecodedImage, Promise<GreyPage>>();

/** The side of a picture holding every 8-bit sRGB colour once (4096 x 4096 = 2^24). */
const EVERY_COLOUR_SIDE = 4096;

let greyTable: Promise<Buffer> | null = null;

/**
 * libvips' own grey of every 8-bit sRGB colour, index `r << 16 | g << 8 | b`: a picture of all
 * 2^24 colours converted once per process (about 0.3 s and 16 MiB). libvips turns sRGB to B_W
 * through linear light in floats, one pixel at a time (15-30 ms of CPU for a 2048 px picture,
 * three to four pictures a run); a pixel's grey is then one lookup, the same byte (decode.test.ts),
 * in 6 ms. Started with the pipeline (`prepareGreyTable`), so no run waits for it.
 */
export function prepareGreyTable(): Promise<Buffer> {
  greyTable ??= (async () => {
    const every = Buffer.allocUnsafe(EVERY_COLOUR_SIDE * EVERY_COLOUR_SIDE * 3);
    for (let colour = 0, i = 0; colour < 1 << 24; colour++) {
      every[i++] = colour >> 16;
      every[i++] = (colour >> 8) & 255;
      every[i++] = colour & 255;
    }
    return sharp(every, { raw: { width: EVERY_COLOUR_SIDE, height: EVERY_COLOUR_SIDE, channels: 3 } })
      .greyscale()
      .extractChannel(0)
      .raw()
      .toBuffer();
  })();
  return greyTable;
}

/**
 * The decoded image as one grey channel at its decoded size, converted once per image. sharp turns
 * a picture grey before it extracts, resizes or blurs it, so every grey product of an image is its
 * grey extracted, resized or blurred: the same bytes (decode.test.ts), with one colour conversion
 * per image where each stage made its own; the conversion is libvips' own, looked up (`prepareGreyTable`).
 */
export function greyOf(img: DecodedImage): Promise<GreyPage> {
  let grey = greys.get(img);
  if (!grey) {
    grey = prepareGreyTable().then((table) => {
      const n = img.pixelWidth * img.pixelHeight;
      const rgb = img.pixels;
      const pixels = Buffer.allocUnsafe(n);
      for (let i = 0, k = 0; i < n; i++, k += 3) pixels[i] = table[(rgb[k]! << 16) | (rgb[k + 1]! << 8) | rgb[k + 2]!]!;
      return { pixels, width: img.pixelWidth, height: img.pixelHeight };
    });
    greys.set(img, grey);
  }
  return grey;
}

/** A sharp pipeline over a grey page; ended with `toColourspace('b-w')`, it gives one channel back. */
export function fromGrey(page: GreyPage): Sharp {
  return sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } });
}

/** The decoded image's grey (`greyOf`) through `steps` (extract, resize, blur), as one channel. */
export async function greyProduct(img: DecodedImage, steps: (p: Sharp) => Sharp): Promise<{ data: Buffer; info: OutputInfo }> {
  return steps(fromGrey(await greyOf(img)))
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
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

/** A relative region in decoded pixels: inside the image, at least one pixel each way. */
function pixelBox(img: DecodedImage, r: Region): { left: number; top: number; width: number; height: number } {
  const W = img.pixelWidth;
  const H = img.pixelHeight;
  const left = Math.max(0, Math.min(W - 1, Math.floor(r.left * W)));
  const top = Math.max(0, Math.min(H - 1, Math.floor(r.top * H)));
  return {
    left,
    top,
    width: Math.max(1, Math.min(W - left, Math.round(r.width * W))),
    height: Math.max(1, Math.min(H - top, Math.round(r.height * H))),
  };
}

/**
 * A region as one grey channel, scaled so its width is `width` px at most (`minWidth` at least):
 * text recognition always sees a bounded image whatever was uploaded.
 */
export async function greyRegion(
  img: DecodedImage,
  region: Region = { left: 0, top: 0, width: 1, height: 1 },
  opts: { maxWidth: number; minWidth?: number },
): Promise<GreyPage> {
  const box = pixelBox(img, region);
  const target = Math.max(opts.minWidth ?? 1, Math.min(opts.maxWidth, box.width));
  return greyPixels(img, target, (p) => p.extract(box));
}

/**
 * A region, in pixels of the oriented image as taken, at that resolution as one grey channel: from
 * the decoded copy when it was not downscaled, else decoded again from the upload under the same
 * policy as `decodeImage` (fine detail the downscaled copy averages away, a screen's pixel grid, is
 * only seen there). Both ways the same grey (libvips'), so a measure does not depend on the size.
 */
export async function greyRegionAsTaken(
  bytes: Buffer,
  img: DecodedImage,
  region: { left: number; top: number; width: number; height: number },
): Promise<GreyPage> {
  const asTaken = img.pixelWidth === img.width && img.pixelHeight === img.height;
  if (asTaken) {
    const grey = await greyOf(img);
    return { pixels: copyRegion(grey.pixels, grey.width, 1, region), width: region.width, height: region.height };
  }
  const { data, info } = await sharp(bytes, SHARP_POLICY)
    .rotate()
    .extract(region)
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

/** A region of decoded pixels as an image of its own (a copy of its rows; the size as taken scaled alike). */
export function cropDecoded(img: DecodedImage, r: Region): DecodedImage {
  const W = img.pixelWidth;
  const box = pixelBox(img, r);
  const { width: w, height: h } = box;
  const pixels = copyRegion(img.pixels, W, 3, box);
  return {
    width: Math.round((w / W) * img.width),
    height: Math.round((h / img.pixelHeight) * img.height),
    pixels,
    pixelWidth: w,
    pixelHeight: h,
  };
}

/** The rows of a pixel box (inside the picture) copied out of pixels `width` wide with `channels` bytes a pixel. */
function copyRegion(
  pixels: Buffer,
  width: number,
  channels: number,
  box: { left: number; top: number; width: number; height: number },
): Buffer {
  const out = Buffer.allocUnsafe(box.width * box.height * channels);
  for (let y = 0; y < box.height; y++) {
    const from = ((box.top + y) * width + box.left) * channels;
    pixels.copy(out, y * box.width * channels, from, from + box.width * channels);
  }
  return out;
}

/** A region given relative to a whole image, relative to a part of it instead (clipped to that part). */
export function regionWithin(r: Region, part: Region): Region {
  const left = Math.max(0, (r.left - part.left) / part.width);
  const top = Math.max(0, (r.top - part.top) / part.height);
  const right = Math.min(1, (r.left + r.width - part.left) / part.width);
  const bottom = Math.min(1, (r.top + r.height - part.top) / part.height);
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

/** A grey picture, one byte per pixel: what text recognition reads. */
export interface GreyPage {
  pixels: Buffer;
  width: number;
  height: number;
}

/**
 * A whole side as text recognition reads it: `blank` painted white (the portrait), turned by
 * `rotateDegrees` (sharp's sign) about its centre and cut back to its frame, at the resolution
 * decoded, then scaled to `width` px wide and made grey. Prepared once per side: read both
 * binarised and as it is, it is not prepared twice. (Made grey or scaled before the turn, it
 * is cheaper but reads differently: borderline cases moved both ways on the development split.)
 */
export async function greyPage(img: DecodedImage, opts: { width: number; blank?: Region; rotateDegrees?: number }): Promise<GreyPage> {
  let source = opts.blank ? paintWhite(img, opts.blank) : img;
  if (opts.rotateDegrees) source = await straighten(source, opts.rotateDegrees);
  return greyPixels(source, opts.width);
}

/**
 * A side already turned by `turnedBy` degrees (`straighten`, as the zone stage levels it) as text
 * recognition reads it: scaled to `width` px wide and made grey like `greyPage`, with `blank`
 * (relative to the side as taken, before the turn) painted white where the turn took it. The
 * same page as `greyPage` with `rotateDegrees: turnedBy` but for a pixel or two along the blank's
 * edges, without turning the side a second time (a full-resolution turn, about 0.1 s of a core).
 */
export async function levelledGreyPage(
  levelled: DecodedImage,
  opts: { width: number; blank?: Region; face?: Region; turnedBy: number },
): Promise<GreyPage> {
  const page = await greyPixels(levelled, opts.width);
  if (opts.blank) {
    const k = page.width / levelled.pixelWidth;
    const onPage = (r: Region) => turnedCorners(levelled, r, opts.turnedBy).map(([x, y]) => [x * k, y * k] as [number, number]);
    const corners = onPage(opts.blank);
    // With the face it was drawn around, the blank is kept within the portrait's printed edges.
    const columns = opts.face ? portraitColumns(page, boxOf(corners), boxOf(onPage(opts.face))) : undefined;
    paintPolygonWhite(page, corners, columns);
  }
  return page;
}

/** The upright box around a polygon's corners (pixels). */
function boxOf(corners: [number, number][]): PageBox {
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

/**
 * The corners of a region (relative to a picture as taken) in pixels of the picture turned by
 * `degrees` about its centre (sharp's sign: positive is clockwise, y pointing down), clockwise
 * from the top left.
 */
export function turnedCorners(img: DecodedImage, r: Region, degrees: number): [number, number][] {
  const W = img.pixelWidth;
  const H = img.pixelHeight;
  const cos = Math.cos((degrees * Math.PI) / 180);
  const sin = Math.sin((degrees * Math.PI) / 180);
  const x0 = r.left * W;
  const y0 = r.top * H;
  const x1 = (r.left + r.width) * W;
  const y1 = (r.top + r.height) * H;
  return (
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ] as [number, number][]
  ).map(([x, y]) => [W / 2 + (x - W / 2) * cos - (y - H / 2) * sin, H / 2 + (x - W / 2) * sin + (y - H / 2) * cos]);
}

/** Every pixel of a grey page whose centre lies inside a convex polygon (pixel coordinates), within `columns` [left, right) of its row when given, set to white. */
function paintPolygonWhite(page: GreyPage, corners: [number, number][], columns?: PortraitColumns): void {
  const ys = corners.map(([, y]) => y);
  const rowFrom = Math.max(0, Math.ceil(Math.min(...ys) - 0.5));
  const rowTo = Math.min(page.height - 1, Math.floor(Math.max(...ys) - 0.5));
  for (let row = rowFrom; row <= rowTo; row++) {
    const y = row + 0.5;
    let lo = Infinity;
    let hi = -Infinity;
    // Where the row's centre line crosses each edge: a convex polygon spans one interval. A level
    // edge is skipped: its ends are the ends of the edges beside it, which count them.
    for (let i = 0; i < corners.length; i++) {
      const [ax, ay] = corners[i]!;
      const [bx, by] = corners[(i + 1) % corners.length]!;
      if (ay === by || y < Math.min(ay, by) || y > Math.max(ay, by)) continue;
      const x = ax + ((y - ay) / (by - ay)) * (bx - ax);
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    const within = columns ? columnsAt(columns, row) : { left: 0, right: page.width };
    const from = Math.max(0, Math.ceil(lo - 0.5), within.left);
    const to = Math.min(page.width - 1, Math.floor(hi - 0.5), within.right - 1);
    if (to >= from) page.pixels.fill(255, row * page.width + from, row * page.width + to + 1);
  }
}

/** A decoded image's grey, through `steps` (an extract) where given, scaled to `width` px wide. */
async function greyPixels(img: DecodedImage, width: number, steps: (p: Sharp) => Sharp = (p) => p): Promise<GreyPage> {
  const { data, info } = await greyProduct(img, (p) => steps(p).resize({ width }));
  return { pixels: data, width: info.width, height: info.height };
}

/** A region painted white on a copy of the pixels (the portrait: its texture reads as junk letters beside the fields). */
function paintWhite(img: DecodedImage, b: Region): DecodedImage {
  const W = img.pixelWidth;
  const x0 = Math.max(0, Math.floor(b.left * W));
  const y0 = Math.max(0, Math.floor(b.top * img.pixelHeight));
  const x1 = Math.min(W, x0 + Math.max(1, Math.round(b.width * W)));
  const y1 = Math.min(img.pixelHeight, y0 + Math.max(1, Math.round(b.height * img.pixelHeight)));
  const pixels = Buffer.from(img.pixels);
  for (let y = y0; y < y1; y++) pixels.fill(255, (y * W + x0) * 3, (y * W + x1) * 3);
  return { ...img, pixels };
}

/** The page with its ink judged against its surroundings (binarise.ts) at `contrast`; as it is without one. */
export function binarisedPage(page: GreyPage, contrast?: number): GreyPage {
  if (contrast === undefined) return page;
  // The window is about two MRZ character heights at the widths read.
  return { ...page, pixels: binariseLocally(page.pixels, page.width, page.height, Math.round(page.width / 25), contrast) };
}

/** A grey page as PNG (72 dpi), binarised first at `binarise` when given. */
export async function greyPagePng(page: GreyPage, binarise?: number): Promise<Buffer> {
  const { pixels, width, height } = binarisedPage(page, binarise);
  // Raw pixels carry no density; Tesseract then guesses 25 dpi and warns. 72 is what a JPEG without one reports.
  // Written as one grey channel (`b-w`, and `withDensity` rather than `withMetadata`, which attaches
  // an sRGB profile): sharp would otherwise write RGB, three times the bytes to pack and unpack.
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .toColourspace('b-w')
    .withDensity(72)
    .png({ compressionLevel: 1 })
    .toBuffer();
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
