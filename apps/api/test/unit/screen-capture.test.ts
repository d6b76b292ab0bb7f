import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/pipeline/decode/decode.js';
import { peakShare, screenPattern, showsScreen, SCREEN_PATTERN_LINE } from '../../src/pipeline/read/quality/screen-capture.js';
import { face } from '@service/fixtures/synthetic-documents';
import { Rng } from '@service/fixtures/random';

// A page with a portrait, then photographed: at a slight angle, scaled, as a JPEG. The screen is
// built here, unlike the evaluation set's (a 4-cell pitch with a dark column, not 3 cells with a
// dark row), so the test does not only recognise the generator's own grid.
const PAGE = { width: 2400, height: 1600 };
const PORTRAIT = { left: 400, top: 300, width: 700, height: 900 };

async function page(): Promise<Buffer> {
  const portrait = await sharp(face('grace_hopper.jpg')).resize(PORTRAIT.width, PORTRAIT.height).png().toBuffer();
  const { data, info } = await sharp({ create: { ...PAGE, channels: 3, background: '#f2f0ea' } })
    .composite([{ input: portrait, left: PORTRAIT.left, top: PORTRAIT.top }])
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect(info.channels).toBe(3);
  return data;
}

/** Each pixel of a quarter-size copy shown as 4 x 4 sensor cells: R, G, B columns and a dark one. */
async function onScreen(pixels: Buffer): Promise<Buffer> {
  const w = PAGE.width / 4;
  const h = PAGE.height / 4;
  const small = await sharp(pixels, { raw: { ...PAGE, channels: 3 } })
    .resize(w, h)
    .raw()
    .toBuffer();
  const out = Buffer.alloc(PAGE.width * PAGE.height * 3);
  for (let y = 0; y < PAGE.height; y++) {
    for (let x = 0; x < PAGE.width; x++) {
      const cell = x % 4;
      const v = cell === 3 ? 0 : small[(Math.floor(y / 4) * w + Math.floor(x / 4)) * 3 + cell]!;
      out[(y * PAGE.width + x) * 3 + (cell === 3 ? 0 : cell)] = Math.min(255, v * 1.4);
    }
  }
  return out;
}

/** Photographed: turned 3 degrees, scaled (85%: decoded as taken; 120%: over 2048 px, downscaled on decode), JPEG at quality 85. */
function photograph(pixels: Buffer, scale = 0.85): Promise<Buffer> {
  return sharp(pixels, { raw: { ...PAGE, channels: 3 } })
    .rotate(3, { background: '#333' })
    .resize({ width: Math.round(PAGE.width * scale) })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** The portrait box, as the face stage would give it (relative), after the turn and the scaling. */
const LARGE_FACE = { left: 0.2, top: 0.22, width: 0.22, height: 0.45 };

async function measure(jpeg: Buffer, face = LARGE_FACE) {
  const img = await decodeImage(jpeg);
  return screenPattern(jpeg, img, face);
}

describe('screen recapture (screen-capture.ts)', () => {
  it.each([0.85, 1.2])(
    'a portrait photographed off a screen is over the line; the same portrait on paper is under it (scale %s)',
    async (scale) => {
      const paper = await page();
      const screen = await onScreen(paper);
      const onPaper = await measure(await photograph(paper, scale));
      const offScreen = await measure(await photograph(screen, scale));
      expect(onPaper).toMatchObject({ tile: 128 });
      expect(offScreen).toMatchObject({ tile: 128 });
      expect(onPaper!.share).toBeLessThan(SCREEN_PATTERN_LINE);
      expect(offScreen!.share).toBeGreaterThanOrEqual(SCREEN_PATTERN_LINE);
      expect([showsScreen(onPaper), showsScreen(offScreen)]).toEqual([false, true]);
    },
  );

  // Faces of 102 and 48 px at the resolution taken (a card small in a phone's frame): judged on
  // tiles of 64, the 48 px face on a square grown around it to 64 px, all inside the portrait.
  it.each([
    ['102 px', { left: 0.25, top: 0.35, width: 0.05, height: 0.1 }],
    ['48 px', { left: 0.27, top: 0.4, width: 0.0235, height: 0.07 }],
  ])('a face of %s is judged on tiles of 64 px', async (_, face) => {
    const paper = await page();
    const onPaper = await measure(await photograph(paper), face);
    const offScreen = await measure(await photograph(await onScreen(paper)), face);
    expect(onPaper).toMatchObject({ tile: 64 });
    expect(offScreen).toMatchObject({ tile: 64 });
    expect(onPaper!.share).toBeLessThan(SCREEN_PATTERN_LINE);
    expect(offScreen!.share).toBeGreaterThanOrEqual(SCREEN_PATTERN_LINE);
  });

  it('a face too small at the resolution taken to grow to one tile (under 40 px) is not judged', async () => {
    const jpeg = await photograph(await page());
    const img = await decodeImage(jpeg);
    // 2040 x 1360 after the scaling: 0.018 of the width is 37 px.
    expect(await screenPattern(jpeg, img, { left: 0.27, top: 0.4, width: 0.018, height: 0.05 })).toBeNull();
    expect(await screenPattern(jpeg, img, { left: 0.27, top: 0.4, width: 0.021, height: 0.05 })).not.toBeNull();
  });

  it('a grid concentrates its power in a few frequencies; noise and a photograph spread it', async () => {
    const N = 128;
    const grid = new Float64Array(N * N).map(
      (_, i) => Math.sin(((i % N) * 2 * Math.PI) / 3) + Math.sin((Math.floor(i / N) * 2 * Math.PI) / 4),
    );
    const rng = Rng.of('screen-capture-test');
    const noise = new Float64Array(N * N).map(() => rng.gauss());
    const { data } = await sharp(face('grace_hopper.jpg'))
      .greyscale()
      .extract({ left: 200, top: 150, width: N, height: N })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const photo = Float64Array.from(data, (v) => v - 128);
    expect(peakShare(grid)).toBeGreaterThan(0.5);
    expect(peakShare(noise)).toBeLessThan(0.05);
    expect(peakShare(photo)).toBeLessThan(SCREEN_PATTERN_LINE);
  });

  // A screen's grid turned a few degrees, or photographed near the sensor's own pitch, puts its
  // peak where the axial band does not look: half a bin beside a JPEG block-grid frequency (24, 16)
  // on a tile of 64, or past the axes' limit of a period of 2 px (a diagonal of 31, -20).
  it.each([
    ['half a bin beside a block-grid frequency', 24.5, 15.5],
    ["past the axes' limit, on a diagonal", 31, -20],
  ])('a grid on a photograph with its peak %s is over the line', async (_, fu, fv) => {
    const N = 64;
    const { data } = await sharp(face('grace_hopper.jpg'))
      .greyscale()
      .extract({ left: 260, top: 200, width: N, height: N })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const hann = (i: number) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / N);
    /** The photo, and a grid of +-`grid` grey levels over it, as the stage cuts a tile (windowed). */
    const tile = (grid: number) =>
      Float64Array.from(data, (v, i) => {
        const x = i % N;
        const y = Math.floor(i / N);
        return (v - 128 + grid * Math.cos((2 * Math.PI * (fu * x + fv * y)) / N)) * hann(x) * hann(y);
      });
    expect(peakShare(tile(0))).toBeLessThan(SCREEN_PATTERN_LINE);
    expect(peakShare(tile(24))).toBeGreaterThanOrEqual(SCREEN_PATTERN_LINE);
  });
});
