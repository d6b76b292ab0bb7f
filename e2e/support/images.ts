import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const SELFIE_SOURCE = path.join(fixtures, 'grace_hopper.jpg');

/** A synthetic ID card on a desk (invented name and number), with the astronaut photo as its portrait. */
export async function documentImage(): Promise<Buffer> {
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
  return sharp({ create: { width: W, height: H, channels: 3, background: '#6b5b4b' } })
    .composite([{ input: cardPng, left: (W - 860) / 2, top: (H - 540) / 2 }])
    .jpeg()
    .toBuffer();
}
