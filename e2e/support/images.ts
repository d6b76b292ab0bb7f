import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const SELFIE_SOURCE = path.join(fixtures, 'grace_hopper.jpg');

/**
 * A synthetic ID card on a desk (invented name and number), with the astronaut photo as its
 * portrait; `scale` sizes the card (1: 860 px of the 1280 px frame, as held near the camera).
 */
export async function documentImage(scale = 1): Promise<Buffer> {
  const W = 1280;
  const H = 720;
  const card = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="860" height="540">
    <rect width="860" height="540" rx="28" fill="#e8eef7" stroke="#50627c" stroke-width="6"/>
    <rect x="0" y="0" width="860" height="90" rx="28" fill="#24406b"/>
    <text x="40" y="60" font-family="DejaVu Sans" font-size="38" fill="#fff" font-weight="bold">EXAMPLE · IDENTITY CARD</text>
    <text x="330" y="170" font-family="DejaVu Sans" font-size="24" fill="#50627c">SURNAME / APELLIDOS</text>
    <text x="330" y="210" font-family="DejaVu Sans" font-size="36" fill="#111">MARTÍNEZ GARCÍA</text>
    <text x="330" y="260" font-family="DejaVu Sans" font-size="24" fill="#50627c">GIVEN NAMES / NOMBRE</text>
    <text x="330" y="300" font-family="DejaVu Sans" font-size="36" fill="#111">ANA LUCÍA</text>
    <text x="330" y="350" font-family="DejaVu Sans" font-size="24" fill="#50627c">DOCUMENT NO.</text>
    <text x="330" y="390" font-family="DejaVu Sans" font-size="36" fill="#111">X1234567Z</text>
    <text x="330" y="440" font-family="DejaVu Sans" font-size="24" fill="#50627c">EXPIRY 2031-05-14 · BORN 1990-02-28</text>
  </svg>`);
  const portrait = await sharp(path.join(fixtures, 'astronaut.png')).resize(250, 310, { fit: 'cover', position: 'top' }).toBuffer();
  const cardPng = await sharp(card)
    .composite([{ input: portrait, left: 40, top: 130 }])
    .png()
    .toBuffer();
  const cw = Math.round(860 * scale);
  const ch = Math.round(540 * scale);
  const sized = scale === 1 ? cardPng : await sharp(cardPng).resize(cw, ch).toBuffer();
  return sharp({ create: { width: W, height: H, channels: 3, background: '#6b5b4b' } })
    .composite([{ input: sized, left: Math.round((W - cw) / 2), top: Math.round((H - ch) / 2) }])
    .jpeg()
    .toBuffer();
}

/** A painted wall filmed close: soft, uneven texture and no straight edge (no document anywhere). */
export async function wallImage(): Promise<Buffer> {
  const W = 1280;
  const H = 720;
  const noise = Buffer.alloc(W * H * 3);
  let seed = 7;
  for (let i = 0; i < noise.length; i += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const v = 178 + (seed % 24);
    noise[i] = v;
    noise[i + 1] = v - 6;
    noise[i + 2] = v - 18;
  }
  return sharp(noise, { raw: { width: W, height: H, channels: 3 } })
    .blur(2.5)
    .jpeg()
    .toBuffer();
}
