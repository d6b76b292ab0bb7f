import sharp from 'sharp';

/** A sharp, document-like test picture (text and edges) rendered with sharp; no real person. */
export async function textCard(width = 1280, height = 800): Promise<Buffer> {
  const lines = Array.from({ length: 8 }, (_, i) => `<text x="60" y="${120 + i * 80}" font-family="DejaVu Sans" font-size="44" fill="#111">LINE ${i} SAMPLE TEXT 0123456789</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#e8eef7"/><rect x="20" y="20" width="${width - 40}" height="${height - 40}" fill="none" stroke="#24406b" stroke-width="8"/>${lines}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
}
