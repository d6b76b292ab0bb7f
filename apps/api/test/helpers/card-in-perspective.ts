import sharp, { type Sharp } from 'sharp';
import { warpToQuad, type Point } from '@service/fixtures/warp';
import { face } from '@service/fixtures/synthetic-documents';

/**
 * An identity card built in the tests (not the evaluation set's layouts) and photographed in
 * perspective: a portrait cropped tight on the left, labels and values beside it, drawn onto a
 * known quad of a background. For the quad finder's tests and the pipeline's.
 */
export const CARD = { width: 856, height: 540 };
export const PORTRAIT = { left: 40, top: 110, width: 200, height: 260 };

export interface CardLayout {
  /** Label, value, label, value...: the fields beside the portrait, one line each. */
  lines: readonly string[];
  /** Where the lines start (left edge) and where the first line's baseline lies, card px. */
  x: number;
  top: number;
  /** From one line to the next, and the labels' and the values' font sizes, card px. */
  pitch: number;
  labelSize: number;
  valueSize: number;
  /** The part of Grace Hopper's photograph printed as the portrait (the whole of it when absent). */
  crop?: { left: number; top: number; width: number; height: number };
}

/** The card's RGBA pixels (CARD's size). */
export async function cardPixels(layout: CardLayout): Promise<Buffer> {
  const lines = layout.lines
    .map(
      (t, i) =>
        `<text x="${layout.x}" y="${layout.top + i * layout.pitch}" font-family="DejaVu Sans" font-size="${i % 2 ? layout.valueSize : layout.labelSize}" fill="#222">${t}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD.width}" height="${CARD.height}"><rect width="100%" height="100%" rx="24" fill="#e9eef2"/><text x="40" y="70" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="#223">IDENTITY CARD</text>${lines}</svg>`;
  const photo = sharp(face('grace_hopper.jpg'));
  const portrait = await (layout.crop ? photo.extract(layout.crop) : photo).resize(PORTRAIT.width, PORTRAIT.height).png().toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: portrait, left: PORTRAIT.left, top: PORTRAIT.top }])
    .ensureAlpha()
    .raw()
    .toBuffer();
}

/** A document's RGBA pixels (the card's, or another `size`) drawn onto `quad` (corners clockwise from the top left) of `background`, as a JPEG. */
export async function photographInPerspective(
  pixels: Buffer,
  quad: readonly Point[],
  background: Sharp,
  size: { width: number; height: number } = CARD,
): Promise<Buffer> {
  const patch = warpToQuad(pixels, size.width, size.height, quad);
  return background
    .composite([{ input: patch.data, raw: { width: patch.width, height: patch.height, channels: 4 }, left: patch.left, top: patch.top }])
    .jpeg({ quality: 85 })
    .toBuffer();
}
