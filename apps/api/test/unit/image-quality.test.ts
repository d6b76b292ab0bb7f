import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUALITY_THRESHOLDS, measureQuality, qualityScore } from '../../src/pipeline/image-quality.js';
import { textCard } from '../../src/eval/synthetic-documents.js';

describe('image quality', () => {
  it('a sharp, well-lit document scores 1 with no flags', async () => {
    const q = await measureQuality(await textCard());
    expect(q.sharpness).toBeGreaterThan(1000);
    expect(q).toMatchObject({ width: 1280, height: 800 });
    expect(qualityScore(q, DEFAULT_QUALITY_THRESHOLDS)).toEqual({ score: 1, blurry: false, dark: false, bright: false, small: false });
  });

  it('sharpness falls steadily with blur; a strong blur is flagged blurry and scores 0', async () => {
    const card = await textCard();
    const values = [];
    for (const sigma of [1, 2, 4]) values.push((await measureQuality(await sharp(card).blur(sigma).jpeg().toBuffer())).sharpness);
    expect(values[0]).toBeGreaterThan(values[1]!);
    expect(values[1]).toBeGreaterThan(values[2]!);
    const blurred = qualityScore(await measureQuality(await sharp(card).blur(4).jpeg().toBuffer()), DEFAULT_QUALITY_THRESHOLDS);
    expect(blurred).toMatchObject({ blurry: true, score: 0 });
  });

  it('too dark, burnt out and too small are flagged', async () => {
    const card = await textCard();
    expect(qualityScore(await measureQuality(await sharp(card).linear(0.15, 0).jpeg().toBuffer()), DEFAULT_QUALITY_THRESHOLDS)).toMatchObject({ dark: true, score: 0 });
    expect(qualityScore(await measureQuality(await sharp(card).linear(1, 120).jpeg().toBuffer()), DEFAULT_QUALITY_THRESHOLDS)).toMatchObject({ bright: true, score: 0 });
    expect(qualityScore(await measureQuality(await sharp(card).resize(400).jpeg().toBuffer()), DEFAULT_QUALITY_THRESHOLDS)).toMatchObject({ small: true, score: 0 });
  });

  it('downscales while decoding: a 12 MP image is measured at 1024 px, reporting its real size', async () => {
    const big = await sharp(await textCard()).resize(4000, 2500).jpeg().toBuffer();
    const q = await measureQuality(big);
    expect(q).toMatchObject({ width: 4000, height: 2500 });
  });

  it('refuses bytes that are not an image', async () => {
    await expect(measureQuality(Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2, 3]))).rejects.toThrow();
  });
});
