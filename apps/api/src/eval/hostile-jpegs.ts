/**
 * Hostile JPEGs, generated (nothing checked in): what an attacker with a publishable key uploads.
 * Each is a valid upload for the interface (signature and size) and a problem for a decoder.
 */
import sharp, { type JpegOptions } from 'sharp';

const SOI = 0xd8;
const EOI = Buffer.from([0xff, 0xd9]);

/** A plain photo-like image with some structure, so encoders do real work. */
export function plainJpeg(width = 640, height = 480, opts: JpegOptions = {}): Promise<Buffer> {
  const svg = `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="#cdb"/>
    <text x="20" y="60" font-size="40" font-family="sans-serif">P&lt;ESPMARTINEZ&lt;&lt;ANA</text><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#a86"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg(opts).toBuffer();
}

function markerOffsets(jpeg: Buffer): { marker: number; at: number; length: number }[] {
  const out = [];
  let i = 2;
  while (i + 3 < jpeg.length && jpeg[i] === 0xff) {
    const marker = jpeg[i + 1]!;
    const length = jpeg.readUInt16BE(i + 2);
    out.push({ marker, at: i, length });
    if (marker === 0xda) break;
    i += 2 + length;
  }
  return out;
}

/** The frame header rewritten to claim another size; the data stays that of the small image. */
export function withFrameSize(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  const sof = markerOffsets(out).find((m) => m.marker === 0xc0 || m.marker === 0xc2);
  if (!sof) throw new Error('no frame header');
  out.writeUInt16BE(height, sof.at + 5);
  out.writeUInt16BE(width, sof.at + 7);
  return out;
}

/** Cut short, then closed with an end marker (so it looks complete to a casual check). */
export function truncated(jpeg: Buffer, keep = 0.6): Buffer {
  return Buffer.concat([jpeg.subarray(0, Math.floor(jpeg.length * keep)), EOI]);
}

/** Entropy-coded data overwritten with noise (markers avoided, so the structure still parses). */
export function corrupt(jpeg: Buffer, seed = 7): Buffer {
  const out = Buffer.from(jpeg);
  const sos = markerOffsets(out).find((m) => m.marker === 0xda)!;
  const start = sos.at + 2 + sos.length;
  let x = seed;
  for (let i = start + 16; i < out.length - 2; i += 3) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const b = x & 0xff;
    out[i] = b === 0xff ? 0x00 : b;
  }
  return out;
}

/**
 * A progressive JPEG with `scans` scans: a small progressive image whose last scan (a refinement)
 * is repeated. Every scan makes a progressive decoder walk the whole coefficient buffer again.
 */
export async function manyScanProgressive(scans: number): Promise<Buffer> {
  const base = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#777' } })
    .greyscale()
    .jpeg({ progressive: true, quality: 50 })
    .toBuffer();
  // Find every SOS and the end of its data.
  const sosAt: number[] = [];
  for (let i = 2; i + 1 < base.length; i++) if (base[i] === 0xff && base[i + 1] === 0xda) sosAt.push(i);
  const eoi = base.lastIndexOf(EOI);
  const last = base.subarray(sosAt[sosAt.length - 1], eoi);
  const repeats = Math.max(0, scans - sosAt.length);
  return Buffer.concat([base.subarray(0, eoi), ...Array.from({ length: repeats }, () => last), EOI]);
}

/** Tall and narrow, just under the 50-megapixel limit, with text (the OCR's worst case). */
export async function tallJpeg(width = 763, height = 65_000): Promise<Buffer> {
  const line = await plainJpeg(width, 400);
  const tile = await sharp(line).raw().toBuffer({ resolveWithObject: true });
  const rows = Math.ceil(height / 400);
  return sharp({ create: { width, height, channels: 3, background: '#eee' } })
    .composite(Array.from({ length: Math.min(rows, 40) }, (_, i) => ({ input: tile.data, raw: tile.info, top: i * 1600, left: 0 })))
    .jpeg({ quality: 60 })
    .toBuffer();
}

export function cmykJpeg(): Promise<Buffer> {
  return plainJpeg(640, 480).then((j) => sharp(j).toColourspace('cmyk').jpeg().toBuffer());
}

/** The same photo stored with EXIF orientation 1-8 (how phones save portrait photos). */
export function exifRotated(jpeg: Buffer, orientation: number): Promise<Buffer> {
  return sharp(jpeg).withMetadata({ orientation }).jpeg().toBuffer();
}

/** APP2 ICC_PROFILE segments adding up to about `bytes` of profile (garbage inside a valid header). */
export function hugeIcc(jpeg: Buffer, bytes = 1_500_000): Buffer {
  const chunk = 65_519; // 65535 - 2 (length) - 12 ('ICC_PROFILE\0') - 2 (seq, count)
  const count = Math.min(255, Math.ceil(bytes / chunk));
  const segments: Buffer[] = [];
  for (let n = 1; n <= count; n++) {
    const head = Buffer.alloc(18);
    head[0] = 0xff;
    head[1] = 0xe2;
    head.writeUInt16BE(2 + 14 + chunk, 2);
    head.write('ICC_PROFILE\0', 4, 'latin1');
    head[16] = n;
    head[17] = count;
    const body = Buffer.alloc(chunk, n);
    if (n === 1) body.writeUInt32BE(count * chunk, 0); // the profile's declared size
    segments.push(head, body);
  }
  if (jpeg[1] !== SOI) throw new Error('not a JPEG');
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/**
 * The hostile catalogue every hostile-input check uses (the test suite, the memory benchmark): each
 * kind once, named, built from one ordinary photo, then EXIF orientations `orientations`.
 */
export async function hostileSamples(photo: Buffer, orientations: readonly number[]): Promise<[string, Buffer][]> {
  const samples: [string, Buffer][] = [
    ['corrupt', corrupt(photo)],
    ['truncated', truncated(photo)],
    ['header 7000x7000', withFrameSize(truncated(photo, 0.9), 7000, 7000)],
    ['21,000 scans', await manyScanProgressive(21_000)],
    ['763x65000 with text', await tallJpeg()],
    ['CMYK', await cmykJpeg()],
    ['huge ICC', hugeIcc(photo)],
  ];
  for (const o of orientations) samples.push([`EXIF orientation ${o}`, await exifRotated(photo, o)]);
  return samples;
}
