import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, type Region } from '../../src/pipeline/decode/decode.js';
import { documentRegion } from '../../src/pipeline/locate/find-document.js';
import { face } from '@service/fixtures/synthetic-documents';

// A card built here (not the evaluation set's layouts): portrait on the left, six labelled lines,
// turned 6 degrees and laid on a background, photographed as a JPEG.
const CARD = { width: 1000, height: 630 };
const PORTRAIT = { left: 60, top: 150, width: 250, height: 320 };
const TURN = 6;

async function card(): Promise<Buffer> {
  const lines = ['SURNAME', 'LINDQVIST', 'GIVEN NAMES', 'ANNA MARIA', 'DATE OF BIRTH', '12 04 1987']
    .map((t, i) => `<text x="360" y="${170 + i * 62}" font-family="DejaVu Sans" font-size="${i % 2 ? 40 : 24}" fill="#222">${t}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD.width}" height="${CARD.height}">
    <rect width="100%" height="100%" rx="36" fill="#efe6ea"/>
    <text x="60" y="90" font-family="DejaVu Sans" font-weight="bold" font-size="36" fill="#6a2a48">IDENTITY CARD</text>${lines}</svg>`;
  const portrait = await sharp(face('grace_hopper.jpg')).resize(PORTRAIT.width, PORTRAIT.height).png().toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: portrait, left: PORTRAIT.left, top: PORTRAIT.top }])
    .rotate(TURN, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

/** The card on `background` at (x, y), and where its portrait's box lands (relative to the photo). */
async function photograph(background: Sharp, size: { width: number; height: number }, at: { x: number; y: number }, scale = 1) {
  let turned = await card();
  if (scale !== 1)
    turned = await sharp(turned)
      .resize({ width: Math.round((await sharp(turned).metadata()).width! * scale) })
      .toBuffer();
  const meta = await sharp(turned).metadata();
  const jpeg = await background
    .composite([{ input: turned, left: at.x, top: at.y }])
    .jpeg({ quality: 88 })
    .toBuffer();
  // The portrait's centre turned about the card's centre, scaled, placed.
  const a = (TURN * Math.PI) / 180;
  const dx = PORTRAIT.left + PORTRAIT.width / 2 - CARD.width / 2;
  const dy = PORTRAIT.top + PORTRAIT.height / 2 - CARD.height / 2;
  const cx = at.x + meta.width! / 2 + (dx * Math.cos(a) - dy * Math.sin(a)) * scale;
  const cy = at.y + meta.height! / 2 + (dx * Math.sin(a) + dy * Math.cos(a)) * scale;
  const pw = PORTRAIT.width * scale;
  const ph = PORTRAIT.height * scale;
  const portrait: Region = {
    left: (cx - pw / 2) / size.width,
    top: (cy - ph / 2) / size.height,
    width: pw / size.width,
    height: ph / size.height,
  };
  const cardBox = {
    left: at.x / size.width,
    top: at.y / size.height,
    right: (at.x + meta.width!) / size.width,
    bottom: (at.y + meta.height!) / size.height,
  };
  return { img: await decodeImage(jpeg), portrait, cardBox };
}

/** A desk: a smooth wood-brown gradient, no print on it. */
const desk = (size: { width: number; height: number }) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7a5236"/><stop offset="1" stop-color="#5b3a24"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
    ),
  );

describe('finding the document around its portrait', () => {
  it('a card filling half a photo of a desk: its block, with every printed line, and little of the desk', async () => {
    const size = { width: 2000, height: 1500 };
    const { img, portrait, cardBox } = await photograph(desk(size), size, { x: 420, y: 380 });
    const r = await documentRegion(img, portrait);
    expect(r).not.toBeNull();
    // The printed block is inside the region (the card's corners may be left out, not its lines).
    const textRight = cardBox.left + (650 / 1060) * (cardBox.right - cardBox.left); // the longest line ends near x = 620 on the card
    expect(r!.left).toBeLessThanOrEqual(portrait.left);
    expect(r!.left + r!.width).toBeGreaterThanOrEqual(textRight);
    expect(r!.top).toBeLessThanOrEqual(portrait.top);
    expect(r!.top + r!.height).toBeGreaterThanOrEqual(portrait.top + portrait.height);
    // And the desk is mostly left out: the region is the card's box with a margin (8% of the block
    // a side, and the card's own edge, which reads as ink against a darker desk).
    expect(r!.left).toBeGreaterThanOrEqual(cardBox.left - 0.1);
    expect(r!.left + r!.width).toBeLessThanOrEqual(cardBox.right + 0.1);
    expect(r!.top).toBeGreaterThanOrEqual(cardBox.top - 0.1);
    expect(r!.top + r!.height).toBeLessThanOrEqual(cardBox.bottom + 0.1);
    expect(r!.width * r!.height).toBeLessThan(0.5);
  });

  it('a card that fills the photo: nothing to gain, the whole photo is read', async () => {
    const size = { width: 1150, height: 850 };
    const { img, portrait } = await photograph(desk(size), size, { x: 20, y: 20 }, 1.05);
    expect(await documentRegion(img, portrait)).toBeNull();
  });

  it('a background printed as densely as the card (a fine woven pattern): no block stands out, the whole photo is read', async () => {
    const size = { width: 2000, height: 1500 };
    const weave = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="#d8d2c4"/><rect width="5" height="5" fill="#3a3a3a"/><rect x="5" y="5" width="5" height="5" fill="#3a3a3a"/></pattern></defs><rect width="100%" height="100%" fill="url(#p)"/></svg>`,
    );
    const { img, portrait } = await photograph(sharp(weave), size, { x: 420, y: 380 });
    expect(await documentRegion(img, portrait)).toBeNull();
  });
});
