import sharp, { type JpegOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkJpegStructure, JPEG_MAX_SCANS, readJpegStructure } from '../../src/pipeline-runner/jpeg-structure.js';
import { manyScanProgressive, withFrameSize } from '@service/fixtures/hostile-jpegs';

const image = (width: number, height: number, opts: JpegOptions = {}) =>
  sharp({ create: { width, height, channels: 3, background: '#7a7' } })
    .jpeg(opts)
    .toBuffer();

describe('JPEG structure pre-check', () => {
  it('reads size, components and one scan of a baseline JPEG', async () => {
    const s = readJpegStructure(await image(320, 200));
    expect(s).toMatchObject({ width: 320, height: 200, components: 3, progressive: false, scans: 1, complete: true });
  });

  it('counts the scans of a progressive JPEG', async () => {
    const s = readJpegStructure(await image(320, 200, { progressive: true }));
    expect(s?.progressive).toBe(true);
    expect(s?.scans).toBeGreaterThan(1);
    expect(s?.scans).toBeLessThanOrEqual(12);
    expect(checkJpegStructure(await image(320, 200, { progressive: true })).ok).toBe(true);
  });

  it('refuses a frame header that claims more pixels than the limit', async () => {
    const v = checkJpegStructure(withFrameSize(await image(64, 64), 8000, 8000));
    expect(v).toMatchObject({ ok: false, problem: 'too_many_pixels', structure: { width: 8000, height: 8000 } });
    // 7000x7000 (49 Mpx) is under it: such a file goes to the decoder, inside the child's budget.
    expect(checkJpegStructure(withFrameSize(await image(64, 64), 7000, 7000)).ok).toBe(true);
  });

  it('accepts a tall image under the pixel limit (763x65000 is a budget matter, not a header one)', () => {
    // Only the header matters here: a small image re-labelled.
    return image(16, 16).then((jpeg) => expect(checkJpegStructure(withFrameSize(jpeg, 763, 65000)).ok).toBe(true));
  });

  it('refuses a progressive JPEG with thousands of scans', async () => {
    const hostile = await manyScanProgressive(21_000);
    expect(readJpegStructure(hostile)?.scans).toBeGreaterThan(20_000);
    expect(checkJpegStructure(hostile)).toMatchObject({ ok: false, problem: 'too_many_scans' });
    expect(checkJpegStructure(await manyScanProgressive(JPEG_MAX_SCANS - 20)).ok).toBe(true);
  });

  it('refuses a zero-sized frame and a file without a frame; reports truncation without refusing', async () => {
    const jpeg = await image(64, 64);
    expect(checkJpegStructure(withFrameSize(jpeg, 0, 64))).toMatchObject({ ok: false, problem: 'empty_frame' });
    expect(checkJpegStructure(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toMatchObject({ ok: false, problem: 'no_frame' });
    expect(checkJpegStructure(Buffer.from('not a jpeg'))).toMatchObject({ ok: false, problem: 'not_a_jpeg' });
    const cut = jpeg.subarray(0, Math.floor(jpeg.length * 0.7));
    expect(checkJpegStructure(cut)).toMatchObject({ ok: true, structure: { complete: false, width: 64 } });
  });

  it('never throws on random or cut bytes', () => {
    for (let i = 0; i < 500; i++) {
      const bytes = Buffer.from(Array.from({ length: 1 + Math.floor(Math.random() * 300) }, () => Math.floor(Math.random() * 256)));
      bytes[0] = 0xff;
      bytes[1] = 0xd8;
      expect(() => checkJpegStructure(bytes)).not.toThrow();
    }
  });
});
