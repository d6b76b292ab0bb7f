import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '@service/contract';
import {
  cropDecoded,
  decodeImage,
  greyPage,
  greyPagePng,
  greyOf,
  greyProduct,
  greyRegion,
  greyRegionAsTaken,
  ImageDecodeError,
  levelledGreyPage,
  regionWithin,
  straighten,
  turnedCorners,
} from '../../src/pipeline/decode/decode.js';
import { estimateSkew } from '../../src/pipeline/locate/skew.js';
import { textCard } from '@service/fixtures/synthetic-documents';

describe('decodeImage: one policy for every stage', () => {
  it('applies EXIF orientation before anything else: a portrait phone photo (orientation 6 and 8) comes out upright', async () => {
    const card = await textCard(640, 400);
    const upright = await decodeImage(card);
    for (const [orientation, turn] of [
      [6, -90],
      [8, 90],
    ] as const) {
      // Stored sideways with a tag saying how to turn it back, as phones do.
      const stored = await sharp(card).rotate(turn).withMetadata({ orientation }).jpeg().toBuffer();
      const d = await decodeImage(stored);
      expect({ w: d.width, h: d.height, pw: d.pixelWidth, ph: d.pixelHeight }).toEqual({ w: 640, h: 400, pw: 640, ph: 400 });
      // Same picture as the upright one (mean absolute difference of grey thumbnails is small).
      const thumb = (img: typeof d) =>
        sharp(img.pixels, { raw: { width: img.pixelWidth, height: img.pixelHeight, channels: 3 } })
          .resize(32, 20)
          .greyscale()
          .raw()
          .toBuffer();
      const [a, b] = await Promise.all([thumb(upright), thumb(d)]);
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - b[i]!);
      expect(diff / a.length).toBeLessThan(12);
      // A crop of the bottom of the oriented image works (was "extract_area: bad extract area").
      await expect(greyRegion(d, { left: 0, top: 0.6, width: 1, height: 0.4 }, { maxWidth: 2000, minWidth: 1200 })).resolves.toMatchObject({
        width: 1200,
      });
    }
  });

  it('downscales on decode (long side at most 2048) and keeps the size as taken', async () => {
    const big = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    const d = await decodeImage(big);
    expect(d).toMatchObject({ width: 4000, height: 3000, pixelWidth: 2048, pixelHeight: 1536 });
    expect(d.pixels.length).toBe(2048 * 1536 * 3);
  });

  it('refuses corrupt data, a header over the pixel limit and a strip-shaped image with ImageDecodeError', async () => {
    const card = await textCard(640, 400);
    const cases: [Buffer, string][] = [
      [Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2, 3]), 'corrupt'],
      // Cut short but closed with an end-of-image marker.
      [Buffer.concat([card.subarray(0, Math.floor(card.length / 2)), Buffer.from([0xff, 0xd9])]), 'corrupt'],
    ];
    for (const [bytes, problem] of cases) {
      const err = await decodeImage(bytes).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImageDecodeError);
      expect((err as ImageDecodeError).problem).toBe(problem);
    }
    // A frame header claiming more pixels than the limit: patch the SOF0 size of a small JPEG.
    const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    const sof = small.indexOf(Buffer.from([0xff, 0xc0]));
    const patched = Buffer.from(small);
    patched.writeUInt16BE(7000, sof + 5);
    patched.writeUInt16BE(7000, sof + 7);
    expect(7000 * 7000).toBeGreaterThan(LIMITS.imageMaxPixels);
    expect(((await decodeImage(patched).catch((e: unknown) => e)) as ImageDecodeError).problem).toMatch(/too_many_pixels|corrupt/);
    const strip = await sharp({ create: { width: 100, height: 2000, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    expect(((await decodeImage(strip).catch((e: unknown) => e)) as ImageDecodeError).problem).toBe('bad_shape');
  });
});

describe('estimateSkew', () => {
  it('finds how far text lines are turned, both ways, within a degree', async () => {
    const card = await textCard(1280, 800);
    for (const angle of [-12, -7, -3, 0, 4, 9, 12]) {
      const turned = await sharp(card).rotate(angle, { background: '#777' }).jpeg().toBuffer();
      const skew = await estimateSkew(await decodeImage(turned));
      expect(Math.abs(skew + angle)).toBeLessThanOrEqual(1);
    }
  });
});

describe('greyPage: a side prepared once for text recognition', () => {
  it('is grey at the width asked, the portrait painted white, the frame kept when levelled; the same pixels read both ways', async () => {
    const card = await decodeImage(await textCard(1280, 800));
    const blank = { left: 0.1, top: 0.2, width: 0.25, height: 0.4 };
    const page = await greyPage(card, { width: 1600, blank });
    expect({ w: page.width, h: page.height, bytes: page.pixels.length }).toEqual({ w: 1600, h: 1000, bytes: 1600 * 1000 });
    // Inside the painted region (away from its resampled edge) every pixel is white; outside there is ink.
    let inside = 255;
    for (let y = 220; y < 580; y++) for (let x = 180; x < 540; x++) inside = Math.min(inside, page.pixels[y * 1600 + x]!);
    expect(inside).toBe(255);
    expect(page.pixels.reduce((m, v) => Math.min(m, v), 255)).toBeLessThan(100);
    const level = await greyPage(card, { width: 1600, rotateDegrees: 7 });
    expect({ w: level.width, h: level.height }).toEqual({ w: 1600, h: 1000 });
    // Levelled, its text lines are level again (the turn was really applied).
    const turnedBack = await estimateSkew({
      width: 1600,
      height: 1000,
      pixels: Buffer.from(Array.from(level.pixels, (v) => [v, v, v]).flat()),
      pixelWidth: 1600,
      pixelHeight: 1000,
    });
    expect(Math.abs(turnedBack + 7)).toBeLessThanOrEqual(1);
    // Binarised or not, a PNG of the same size.
    for (const png of [await greyPagePng(page), await greyPagePng(page, 0.3)]) {
      const meta = await sharp(png).metadata();
      expect({ w: meta.width, h: meta.height, channels: meta.channels }).toEqual({ w: 1600, h: 1000, channels: 1 });
    }
  });
});

describe('levelledGreyPage: the page of a side the zone stage already levelled', () => {
  it("is the page greyPage makes turning the side itself, but for the blank region's edges", async () => {
    const card = await decodeImage(await textCard(1280, 800));
    const blank = { left: 0.55, top: 0.2, width: 0.3, height: 0.5 };
    for (const degrees of [0, 6, -11]) {
      const turned = await greyPage(card, { width: 1600, blank, rotateDegrees: degrees });
      const levelled = await levelledGreyPage(degrees ? await straighten(card, degrees) : card, { width: 1600, blank, turnedBy: degrees });
      expect({ w: levelled.width, h: levelled.height }).toEqual({ w: turned.width, h: turned.height });
      let differ = 0;
      for (let i = 0; i < turned.pixels.length; i++) if (Math.abs(turned.pixels[i]! - levelled.pixels[i]!) > 64) differ++;
      // A pixel or two along the blank's outline (about 2,000 of its pixels), nothing elsewhere.
      expect(differ, `${degrees} degrees`).toBeLessThan(2500);
      expect(differ, `${degrees} degrees`).toBeLessThan(0.002 * turned.pixels.length);
    }
  });

  it("paints the blank where the turn took it: white around the region's turned centre, ink left outside it", async () => {
    const card = await decodeImage(await textCard(1280, 800));
    const blank = { left: 0.05, top: 0.3, width: 0.4, height: 0.4 };
    const page = await levelledGreyPage(await straighten(card, 10), { width: 1600, blank, turnedBy: 10 });
    const corners = turnedCorners(card, blank, 10).map(([x, y]) => [x * 1.25, y * 1.25]);
    // Turned clockwise about the picture's centre: the left edge's top corner moves right, its bottom corner left.
    expect(corners[0]![0]).toBeGreaterThan(0.05 * 1600);
    expect(corners[3]![0]).toBeLessThan(0.05 * 1600);
    const cx = corners.reduce((s, [x]) => s + x!, 0) / 4;
    const cy = corners.reduce((s, [, y]) => s + y!, 0) / 4;
    let inside = 255;
    for (let y = Math.round(cy - 100); y < cy + 100; y++)
      for (let x = Math.round(cx - 100); x < cx + 100; x++) inside = Math.min(inside, page.pixels[y * 1600 + x]!);
    expect(inside).toBe(255);
    expect(page.pixels.reduce((m, v) => Math.min(m, v), 255)).toBeLessThan(100);
  });
});

describe('cropDecoded and regionWithin: a document block read on its own', () => {
  it("copies exactly the region's pixels and scales the size as taken alike", async () => {
    // 4 x 3 pixels whose red value is their index, decoded as if downscaled by 2 from 8 x 6.
    const pixels = Buffer.alloc(4 * 3 * 3);
    for (let i = 0; i < 12; i++) pixels[i * 3] = i;
    const img = { width: 8, height: 6, pixels, pixelWidth: 4, pixelHeight: 3 };
    const crop = cropDecoded(img, { left: 0.25, top: 1 / 3, width: 0.5, height: 2 / 3 });
    expect([crop.pixelWidth, crop.pixelHeight, crop.width, crop.height]).toEqual([2, 2, 4, 4]);
    expect([0, 1, 2, 3].map((k) => crop.pixels[k * 3])).toEqual([5, 6, 9, 10]);
  });

  it('a region of the whole image expressed in the block, clipped to it', () => {
    const block = { left: 0.2, top: 0.1, width: 0.5, height: 0.8 };
    const r = regionWithin({ left: 0.3, top: 0.5, width: 0.1, height: 0.2 }, block);
    expect(r.left).toBeCloseTo(0.2);
    expect(r.top).toBeCloseTo(0.5);
    expect(r.width).toBeCloseTo(0.2);
    expect(r.height).toBeCloseTo(0.25);
    // Sticking out of the block on the left: cut at its edge.
    const out = regionWithin({ left: 0.1, top: 0.1, width: 0.2, height: 0.1 }, block);
    expect(out.left).toBe(0);
    expect(out.width).toBeCloseTo(0.2);
  });
});

describe('greyOf: one colour conversion per decoded image', () => {
  // Gaussian noise over every channel, about a background colour.
  const noisy = (width: number, height: number, background: { r: number; g: number; b: number }, sigma: number) =>
    sharp({ create: { width, height, channels: 3, background, noise: { type: 'gaussian', mean: 128, sigma } } });
  // A photo-like picture: colour gradients, noise and print, at a size the pipeline decodes.
  const photo = async () => {
    const card = await sharp(await textCard(900, 560))
      .tint({ r: 200, g: 170, b: 120 })
      .toBuffer();
    return decodeImage(
      await noisy(1500, 1100, { r: 90, g: 120, b: 60 }, 40)
        .composite([{ input: card, left: 260, top: 210 }])
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
  };
  const rgb = (img: Awaited<ReturnType<typeof decodeImage>>) =>
    sharp(img.pixels, { raw: { width: img.pixelWidth, height: img.pixelHeight, channels: 3 } });

  it('gives the bytes each stage made from the colour pixels: resized, extracted and resized, blurred', async () => {
    const img = await photo();
    const viaColour = (steps: (p: Sharp) => Sharp) => steps(rgb(img)).greyscale().extractChannel(0).raw().toBuffer();
    const viaGrey = async (steps: (p: Sharp) => Sharp) => (await greyProduct(img, steps)).data;
    const box = { left: 10, top: 600, width: 1400, height: 480 };
    for (const steps of [
      (p: Sharp) => p.resize({ width: 1024 }),
      (p: Sharp) => p.resize({ width: 600 }).blur(1.2),
      (p: Sharp) => p.extract(box).resize({ width: 2000 }),
      (p: Sharp) => p.resize({ width: 1600 }),
    ]) {
      const [a, b] = await Promise.all([viaColour(steps), viaGrey(steps)]);
      expect(b.length).toBe(a.length);
      expect(b.equals(a)).toBe(true);
    }
    // Converted once: the same promise for every stage of the image.
    expect(greyOf(img)).toBe(greyOf(img));
  });

  it("is libvips' own conversion to the byte, looked up: a photo, and noise over every channel's full range", async () => {
    const noise = await decodeImage(await noisy(1200, 900, { r: 128, g: 128, b: 128 }, 90).png().toBuffer());
    for (const img of [await photo(), noise]) {
      const byLibvips = await rgb(img).greyscale().extractChannel(0).raw().toBuffer();
      const grey = await greyOf(img);
      expect(grey).toMatchObject({ width: img.pixelWidth, height: img.pixelHeight });
      expect(grey.pixels.equals(byLibvips)).toBe(true);
    }
  });

  it('greyRegionAsTaken reads a region of an image decoded at its size from the same grey', async () => {
    const img = await photo();
    const region = { left: 300, top: 250, width: 400, height: 300 };
    const old = await rgb(img).extract(region).greyscale().extractChannel(0).raw().toBuffer();
    const page = await greyRegionAsTaken(Buffer.alloc(0), img, region);
    expect({ w: page.width, h: page.height }).toEqual({ w: 400, h: 300 });
    expect(page.pixels.equals(old)).toBe(true);
  });
});
