import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, type GreyPage } from '../../src/pipeline/decode/decode.js';
import { levelledTextPage } from '../../src/pipeline/read/ocr/ocr.js';
import { columnsAt, portraitColumns } from '../../src/pipeline/locate/portrait-edges.js';

const W = 800;
const H = 500;
const PAPER = 220;

/**
 * A card: a portrait (textured, x 100-300, y 100-360), print beside it from `printFrom`, the desk
 * under row `deskFrom`. With `lean`, the portrait and the print's left margin lean that many px per
 * row down about row 230 (a side levelled by its text under perspective), the desk's edge the other way.
 */
function card(opts: { printFrom: number; deskFrom?: number; lean?: number }): GreyPage {
  const pixels = Buffer.alloc(W * H, PAPER);
  const lean = opts.lean ?? 0;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const u = x - Math.round(lean * (y - 230));
      if (opts.deskFrom !== undefined && y >= opts.deskFrom - lean * (x - 300)) pixels[i] = 40;
      else if (u >= 100 && u < 300 && y >= 100 && y < 360) pixels[i] = 60 + ((x * 7 + y * 13) % 90);
      // Lines of print: 14 px letters with 4 px between them, on rows 12 px high every 30.
      else if (u >= opts.printFrom && x < 760 && y % 30 < 12 && u % 18 < 14) pixels[i] = 30;
    }
  return { pixels, width: W, height: H };
}
// The face box inside the portrait, and the blank drawn around it with room for a loose crop.
const face = { left: 140, right: 290, top: 150, bottom: 300 };
const blank = { left: 60, right: 360, top: 60, bottom: 480 };

describe('portraitColumns: the blank over a portrait kept within its printed edges', () => {
  it('ends half way across the gap between a tight portrait and the print beside it', () => {
    const { left, right } = portraitColumns(card({ printFrom: 310 }), blank, face);
    // The portrait ends at 300, the print begins at 310: the blank stops between them.
    expect(right).toBeGreaterThan(300);
    expect(right).toBeLessThan(310);
    // On the other side the paper is empty from the portrait's edge on.
    expect(left).toBeLessThanOrEqual(100);
    expect(left).toBeGreaterThan(90);
  });

  it('a gap of 7 px is enough; the desk under a small card does not hide it', () => {
    const { right } = portraitColumns(card({ printFrom: 307, deskFrom: 450 }), blank, face);
    expect(right).toBeGreaterThan(300);
    expect(right).toBeLessThan(307);
  });

  it("stops the rows judged at the card's edge: the desk beside a large face's shoulders does not hide the gap", () => {
    // The card's bottom edge at row 380, within the rows judged (to 390): check set eleventh/x084.
    const { right } = portraitColumns(card({ printFrom: 310, deskFrom: 380 }), blank, face);
    expect(right).toBeGreaterThan(300);
    expect(right).toBeLessThan(310);
  });

  it('judges the rows from the brow down: a title printed above the face across the gap does not hide it', () => {
    const page = card({ printFrom: 310 });
    // A title (a rule, say) across the portrait's top and the gap, above the face box (check set tenth/x044).
    for (let y = 118; y < 130; y++) for (let x = 100; x < 700; x++) page.pixels[y * W + x] = 30;
    const { right } = portraitColumns(page, blank, face);
    expect(right).toBeGreaterThan(300);
    expect(right).toBeLessThan(310);
  });

  it('keeps the blank where no gap lies within it: a loose portrait wider than the face box', () => {
    const loose = { left: 200, right: 260, top: 150, bottom: 300 };
    const page = card({ printFrom: 310 });
    // Shoulders below the face, as wide as the blank.
    for (let y = 300; y < 460; y++) for (let x = 60; x < 360; x++) page.pixels[y * W + x] = 90;
    expect(portraitColumns(page, blank, loose)).toMatchObject({ left: 60, right: 360, leftLean: 0, rightLean: 0 });
  });

  it('follows a portrait whose edges lean on the page, the desk under it slanting (check set monoA/x053)', () => {
    // Leaning 8 degrees: over the rows judged the portrait's edge moves 30 px, the gap is 10.
    const lean = Math.tan((8 * Math.PI) / 180);
    const page = card({ printFrom: 310, lean, deskFrom: 420 });
    const bounds = portraitColumns(page, blank, face);
    expect(bounds.rightLean).toBeGreaterThan(0.1);
    // On every row of the portrait the blank ends between its edge and the print.
    for (const y of [110, 230, 350]) {
      const edge = 300 + lean * (y - 230);
      const { right } = columnsAt(bounds, y);
      expect(right).toBeGreaterThan(edge);
      expect(right).toBeLessThan(edge + 10);
    }
  });

  it('keeps a gap found upright as it was, upright', () => {
    expect(portraitColumns(card({ printFrom: 310 }), blank, face)).toMatchObject({ leftLean: 0, rightLean: 0 });
  });
});

describe('the text page keeps the print beside a tight portrait', () => {
  it('the whole side as read: the blank stops at the portrait', async () => {
    const g = card({ printFrom: 310 });
    const img = await decodeImage(
      await sharp(g.pixels, { raw: { width: W, height: H, channels: 1 } })
        .png()
        .toBuffer(),
    );
    const rel = (b: { left: number; right: number; top: number; bottom: number }) => ({
      left: b.left / W,
      top: b.top / H,
      width: (b.right - b.left) / W,
      height: (b.bottom - b.top) / H,
    });
    // Ink left in the first letters beside the portrait (x 310-340, rows of print), on a page of any width.
    const inkBeside = (page: GreyPage) => {
      const k = page.width / W;
      let n = 0;
      for (let y = 100; y < 360; y++)
        for (let x = 310; x < 340; x++) if (page.pixels[Math.round(y * k) * page.width + Math.round(x * k)]! < 128) n++;
      return n;
    };
    const options = { blank: rel(blank), face: rel(face) };
    expect(inkBeside(await levelledTextPage(img, { ...options, turnedBy: 0 }))).toBeGreaterThan(100);
    // Without the face the blank is drawn around, it paints them out as before.
    expect(inkBeside(await levelledTextPage(img, { blank: rel(blank), turnedBy: 0 }))).toBe(0);
  });
});
