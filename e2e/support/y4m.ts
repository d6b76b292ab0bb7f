import fs from 'node:fs';
import sharp from 'sharp';

/**
 * Writes a YUV4MPEG2 file (4:2:0, `C420jpeg`, the only format Chromium's fake camera reproduces
 * faithfully) from an image: decode with sharp, convert to I420 with BT.601 limited range.
 * Uncompressed, so it is made at test time, never committed.
 */
export async function writeY4m(input: Buffer | string, file: string, width = 1280, height = 720, frames = 2): Promise<void> {
  const { data } = await sharp(input).resize(width, height, { fit: 'cover' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const ySize = width * height;
  const cw = width / 2;
  const ch = height / 2;
  const frame = Buffer.alloc(ySize + 2 * cw * ch);
  for (let i = 0; i < ySize; i++) {
    const r = data[i * 3]!;
    const g = data[i * 3 + 1]!;
    const b = data[i * 3 + 2]!;
    frame[i] = Math.round(16 + 0.257 * r + 0.504 * g + 0.098 * b);
  }
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const p = ((2 * y + dy) * width + 2 * x + dx) * 3;
        r += data[p]!;
        g += data[p + 1]!;
        b += data[p + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      frame[ySize + y * cw + x] = Math.round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
      frame[ySize + cw * ch + y * cw + x] = Math.round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
    }
  }
  const out = fs.openSync(`${file}.tmp`, 'w');
  fs.writeSync(out, `YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  for (let i = 0; i < frames; i++) {
    fs.writeSync(out, 'FRAME\n');
    fs.writeSync(out, frame);
  }
  fs.closeSync(out);
  fs.renameSync(`${file}.tmp`, file);
}
