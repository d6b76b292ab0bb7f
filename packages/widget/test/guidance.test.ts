import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_QUALITY_LINES } from '@service/contract';
import { adviceFor, readFrame, type FrameMemory } from '../src/guidance/advice.js';
import { MEASURE_WIDTH, type Grey } from '../src/guidance/document-measures.js';

const W = 1280;
const H = 720;

/** A synthetic ID card (invented data, a grey portrait block, print) as PNG. */
function cardSvg(width: number, height: number): Buffer {
  const lines = Array.from(
    { length: 5 },
    (_, i) =>
      `<text x="${0.38 * width}" y="${(0.3 + i * 0.12) * height}" font-family="DejaVu Sans" font-size="${0.055 * height}" fill="#1a1a1a">FIELD ${i + 1}: SAMPLE VALUE ${i * 7 + 3}</text>`,
  ).join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" rx="${0.04 * width}" fill="#e8eef7"/>
    <rect width="${width}" height="${0.16 * height}" fill="#24406b"/>
    <text x="${0.05 * width}" y="${0.11 * height}" font-family="DejaVu Sans" font-size="${0.07 * height}" fill="#fff">SPECIMEN IDENTITY CARD</text>
    <rect x="${0.05 * width}" y="${0.25 * height}" width="${0.28 * width}" height="${0.6 * height}" fill="#8a7f78"/>
    <circle cx="${0.19 * width}" cy="${0.45 * height}" r="${0.08 * width}" fill="#c9a98f"/>
    ${lines}
  </svg>`);
}

interface Scene {
  /** Card width as a share of the frame. */
  share?: number;
  dx?: number;
  blur?: number;
  dim?: number;
  glare?: boolean;
  wall?: boolean;
}

async function frame(s: Scene = {}): Promise<Grey> {
  const bg = sharp({ create: { width: W, height: H, channels: 3, background: '#6b5b4b' } });
  const layers: sharp.OverlayOptions[] = [];
  if (!s.wall) {
    const cw = Math.round((s.share ?? 0.67) * W);
    const ch = Math.round(cw / 1.586);
    const card = await sharp(cardSvg(cw, ch)).png().toBuffer();
    layers.push({ input: card, left: Math.round((W - cw) / 2 + (s.dx ?? 0)), top: Math.round((H - ch) / 2) });
    if (s.glare) {
      const r = Math.round(0.09 * cw);
      layers.push({
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${3 * r}" height="${2 * r}"><ellipse cx="${1.5 * r}" cy="${r}" rx="${1.5 * r}" ry="${r}" fill="#fff"/></svg>`,
        ),
        left: Math.round(W / 2),
        top: Math.round(H / 2 - r),
      });
    }
  } else {
    // A painted wall: gentle noise, no straight edges.
    const noise = Buffer.alloc(W * H * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = 170 + Math.round(Math.random() * 20);
    layers.push({
      input: await sharp(noise, { raw: { width: W, height: H, channels: 3 } })
        .blur(2)
        .png()
        .toBuffer(),
      left: 0,
      top: 0,
    });
  }
  let img = sharp(await bg.composite(layers).png().toBuffer());
  if (s.blur) img = sharp(await img.blur(s.blur).toBuffer());
  if (s.dim) img = sharp(await img.linear(s.dim, 0).toBuffer());
  const { data, info } = await img.resize({ width: MEASURE_WIDTH }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const advise = (grey: Grey, before: FrameMemory | null = null) => adviceFor(readFrame(grey, before).reading);

describe('document guidance', () => {
  it('a steady, near, sharp card in good light is ready, its place and size found', async () => {
    const grey = await frame();
    const { reading } = readFrame(grey, null);
    expect(reading.quad).not.toBeNull();
    expect(reading.widthShare).toBeGreaterThan(0.6);
    expect(reading.widthShare).toBeLessThan(0.74);
    expect(reading.sharpness).toBeGreaterThan(DOCUMENT_QUALITY_LINES.minSharpness);
    expect(adviceFor(reading)).toBe('ready');
  });

  it('a card a third of the frame wide: move closer', async () => {
    expect(advise(await frame({ share: 0.33 }))).toBe('move_closer');
  });

  it('a wall: searching', async () => {
    expect(advise(await frame({ wall: true }))).toBe('searching');
  });

  it('a dark room: too dark', async () => {
    expect(advise(await frame({ dim: 0.25 }))).toBe('too_dark');
  });

  it('out of focus: hold still (blur measured as the pipeline measures it)', async () => {
    const { reading } = readFrame(await frame({ blur: 4 }), null);
    expect(reading.sharpness).toBeLessThan(DOCUMENT_QUALITY_LINES.minSharpness);
    expect(adviceFor(reading)).toBe('hold_still');
  });

  it('moving between two frames: hold still', async () => {
    const first = readFrame(await frame(), null);
    expect(advise(await frame({ dx: 30 }), first.memory)).toBe('hold_still');
    expect(advise(await frame(), first.memory)).toBe('ready');
  });

  it('a lamp reflected over the card: glare', async () => {
    const { reading } = readFrame(await frame({ glare: true }), null);
    expect(reading.clipped).toBeGreaterThan(DOCUMENT_QUALITY_LINES.maxClipped);
    expect(adviceFor(reading)).toBe('glare');
  });
});
