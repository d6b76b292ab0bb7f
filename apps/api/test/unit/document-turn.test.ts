import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, type DecodedImage, type Region } from '../../src/pipeline/decode/decode.js';
import { regionAsTaken, turned, turnsToTry, uprightAndSure, type Turn } from '../../src/pipeline/locate/document-turn.js';

/** A grey 300 x 200 picture with one white block at `block` (pixels). */
async function pictureWithBlock(block: { left: number; top: number; width: number; height: number }): Promise<DecodedImage> {
  const white = await sharp({ create: { width: block.width, height: block.height, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#404040' } })
    .composite([{ input: white, left: block.left, top: block.top }])
    .png()
    .toBuffer();
  return decodeImage(png);
}

/** The bounding region (relative) of a decoded picture's white pixels. */
function whiteRegion(img: DecodedImage): Region {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < img.pixelHeight; y++)
    for (let x = 0; x < img.pixelWidth; x++) {
      if (img.pixels[(y * img.pixelWidth + x) * 3]! < 200) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  return {
    left: x0 / img.pixelWidth,
    top: y0 / img.pixelHeight,
    width: (x1 + 1 - x0) / img.pixelWidth,
    height: (y1 + 1 - y0) / img.pixelHeight,
  };
}

const close = (a: Region, b: Region) => {
  for (const k of ['left', 'top', 'width', 'height'] as const) expect(a[k]).toBeCloseTo(b[k], 3);
};

describe('a document read turned', () => {
  it.each<Turn>([0, 90, 180, 270])(
    'turned %s degrees clockwise: its size swaps on a quarter turn, and a region maps back onto the picture as taken',
    async (turn) => {
      const img = await pictureWithBlock({ left: 30, top: 20, width: 90, height: 40 });
      const t = await turned(img, turn);
      const quarter = turn % 180 !== 0;
      expect([t.width, t.height, t.pixelWidth, t.pixelHeight]).toEqual(quarter ? [200, 300, 200, 300] : [300, 200, 300, 200]);
      // The block, found on the turned picture, lies where it was on the one taken.
      close(regionAsTaken(whiteRegion(t), turn), whiteRegion(img));
    },
  );

  it('a quarter turn clockwise puts the top-left corner at the top right', async () => {
    const img = await pictureWithBlock({ left: 0, top: 0, width: 30, height: 20 });
    close(whiteRegion(await turned(img, 90)), { left: 0.9, top: 0, width: 0.1, height: 0.1 });
  });

  it('is read at the quarter turn that sets its portrait upright; with none found, half a turn, then the quarters where a quick look finds a face', () => {
    // A portrait turned a quarter clockwise measures a roll of about +80: a quarter anticlockwise (270) undoes it.
    expect(turnsToTry({ roll: 80, score: 1 })).toEqual([{ turn: 270, checkFirst: false }]);
    expect(turnsToTry({ roll: -80, score: 0.5 })).toEqual([{ turn: 90, checkFirst: false }]);
    for (const roll of [0, 12, -30]) expect(turnsToTry({ roll, score: 0.99 })).toEqual([{ turn: 180, checkFirst: false }]);
    const unsure = [
      { turn: 180, checkFirst: false },
      { turn: 90, checkFirst: true },
      { turn: 270, checkFirst: true },
    ];
    expect(turnsToTry({ roll: 5, score: 0.5 })).toEqual(unsure);
    expect(turnsToTry(null)).toEqual(unsure);
  });

  it('a face is upright and sure from a score of 0.8 and within 45 degrees of roll', () => {
    expect(uprightAndSure({ roll: 10, score: 0.95 })).toBe(true);
    expect(uprightAndSure({ roll: -44, score: 0.8 })).toBe(true);
    expect(uprightAndSure({ roll: 60, score: 1 })).toBe(false);
    expect(uprightAndSure({ roll: 0, score: 0.79 })).toBe(false);
    expect(uprightAndSure(null)).toBe(false);
  });
});
