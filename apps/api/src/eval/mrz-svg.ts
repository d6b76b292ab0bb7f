/**
 * One MRZ line as SVG text at a fixed pitch, as a printer sets OCR-B: each character placed on its
 * own x, so the line spans exactly `width` whatever the font's metrics. (librsvg ignores
 * `textLength`: a line set with it ran past the page's edge and lost its last 18 characters.)
 * OCR-B's glyphs are about 0.7 em wide, so the size is capped to keep them apart.
 */
export function mrzLineSvg(line: string, x: number, y: number, width: number, fontSize: number): string {
  const pitch = width / line.length;
  const size = Math.min(fontSize, pitch / 0.72);
  const xs = Array.from(line, (_, i) => (x + i * pitch).toFixed(1)).join(' ');
  const text = line.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<text x="${xs}" y="${y.toFixed(1)}" font-family="OCR B" font-size="${size.toFixed(1)}" fill="#000">${text}</text>`;
}
