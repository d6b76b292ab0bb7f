import type { DecodedImage, Region } from '../decode/decode.js';
import { inkOf } from './skew.js';

/** Grid cell side, px of the skew stage's ink map (600 px wide). */
const CELL = 12;
/** Share of a cell's pixels that must be ink for the cell to count as print. */
const INKED = 0.04;
/** A block smaller than this many portraits is the portrait's own frame, not a document. */
const MIN_PORTRAITS = 2;
/** A block whose box covers more than this share of the photo gains nothing from a crop. */
const MAX_SHARE = 0.75;
/** Margin added around the block's box, as a share of its size per side. */
const MARGIN = 0.08;

/**
 * Where the document lies in a photo, found from its printed portrait and the print around it: a
 * card or a data page is a block of printed lines beside its portrait, and what lies around it (a
 * desk, a hand, fabric out of focus) mostly is not. On a coarse grid of the ink map (the skew
 * stage's), the cells joined to the portrait through inked cells, with a one-cell bridge over the
 * gaps between lines, are the document; their box with a margin is what text recognition reads,
 * so a document that fills half the photo is read at twice the pixels and without the
 * background's junk words.
 *
 * Null (read the whole photo, as before) whenever the answer is not clearly a document: the block
 * is hardly larger than the portrait, or it covers nearly the whole photo (the document fills the
 * frame, or the background is as inked as print).
 */
export async function documentRegion(img: DecodedImage, portrait: Region): Promise<Region | null> {
  const { ink, w, h } = await inkOf(img);
  const gw = Math.ceil(w / CELL);
  const gh = Math.ceil(h / CELL);
  const count = new Uint16Array(gw * gh);
  for (let k = 0; k < ink.length; k += 2) count[Math.floor(ink[k + 1]! / CELL) * gw + Math.floor(ink[k]! / CELL)]!++;
  const inked = new Uint8Array(gw * gh);
  for (let i = 0; i < inked.length; i++) inked[i] = count[i]! >= INKED * CELL * CELL ? 1 : 0;
  // One cell of bridge: a cell next to an inked one is passable (the gap between two lines).
  const passable = new Uint8Array(gw * gh);
  for (let y = 0; y < gh; y++)
    for (let x = 0; x < gw; x++)
      if (inked[y * gw + x])
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            const yy = y + dy;
            if (xx >= 0 && yy >= 0 && xx < gw && yy < gh) passable[yy * gw + xx] = 1;
          }
  const pl = Math.max(0, Math.floor(portrait.left * gw));
  const pt = Math.max(0, Math.floor(portrait.top * gh));
  const pr = Math.min(gw - 1, Math.ceil((portrait.left + portrait.width) * gw) - 1);
  const pb = Math.min(gh - 1, Math.ceil((portrait.top + portrait.height) * gh) - 1);
  const seen = new Uint8Array(gw * gh);
  const stack: number[] = [];
  for (let y = pt; y <= pb; y++)
    for (let x = pl; x <= pr; x++) {
      seen[y * gw + x] = 1;
      stack.push(y * gw + x);
    }
  let [x0, y0, x1, y1] = [pl, pt, pr, pb];
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % gw;
    const y = (i - x) / gw;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    for (const j of [x > 0 ? i - 1 : -1, x < gw - 1 ? i + 1 : -1, y > 0 ? i - gw : -1, y < gh - 1 ? i + gw : -1]) {
      if (j >= 0 && !seen[j] && passable[j]) {
        seen[j] = 1;
        stack.push(j);
      }
    }
  }
  const bw = x1 - x0 + 1;
  const bh = y1 - y0 + 1;
  if (bw * bh < MIN_PORTRAITS * (pr - pl + 1) * (pb - pt + 1)) return null;
  if (bw * bh > MAX_SHARE * gw * gh) return null;
  const left = Math.max(0, x0 - MARGIN * bw) / gw;
  const top = Math.max(0, y0 - MARGIN * bh) / gh;
  const right = Math.min(gw, x1 + 1 + MARGIN * bw) / gw;
  const bottom = Math.min(gh, y1 + 1 + MARGIN * bh) / gh;
  return { left, top, width: right - left, height: bottom - top };
}
