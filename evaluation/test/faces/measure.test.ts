import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/faces/measure.js';
import { portraitCrop } from '../../src/faces/render.js';
import { toInput } from '../../src/faces/descriptors.js';
import type { FivePoints } from '../../src/faces/align.js';

describe('parseConfig', () => {
  it('reads a descriptor and its options', () => {
    const c = parseConfig('face-api,zoom=1.1,eq,bilinear,upright,native');
    expect(c).toMatchObject({ id: 'face-api', zoom: 1.1, native: true, prep: { equalise: true, resample: 'bilinear', upright: true } });
    expect(parseConfig('mobilefacenet,bgr,centred')).toMatchObject({ bgr: true, scale: 'centred128' });
  });

  it('refuses an unknown descriptor or option', () => {
    expect(() => parseConfig('arcface')).toThrow(/descriptor/);
    expect(() => parseConfig('faceres,sharpen')).toThrow(/option/);
  });
});

describe('portraitCrop', () => {
  const eyes = (cx: number, cy: number, e: number): FivePoints => [
    [cx - e / 2, cy],
    [cx + e / 2, cy],
    [cx, cy + e / 2],
    [cx - e / 3, cy + e],
    [cx + e / 3, cy + e],
  ];

  it('cuts 4 eye distances wide, 3:4, the eyes 42% down', () => {
    const r = portraitCrop(eyes(1000, 800, 100), 3000, 2000);
    expect(r).toEqual({ left: 800, top: 800 - Math.round(0.42 * 533), width: 400, height: 533 });
  });

  it('stays inside the photo when the face is near its edge or the photo is small', () => {
    const r = portraitCrop(eyes(50, 40, 100), 300, 450);
    expect(r.left).toBe(0);
    expect(r.top).toBe(0);
    expect(r.left + r.width).toBeLessThanOrEqual(300);
    expect(r.top + r.height).toBeLessThanOrEqual(450);
  });
});

describe('toInput', () => {
  const crop = { data: Uint8Array.from([0, 128, 255]), width: 1, height: 1 };
  it('feeds 0-255, 0-1 or centred values, RGB or BGR', () => {
    expect(Array.from(toInput(crop, 'raw', false))).toEqual([0, 128, 255]);
    expect(Array.from(toInput(crop, 'raw', true))).toEqual([255, 128, 0]);
    expect(Array.from(toInput(crop, 'unit', false))).toEqual([0, Math.fround(128 / 255), 1]);
    expect(Array.from(toInput(crop, 'centred128', false)).map((v) => Number(v.toFixed(4)))).toEqual([-0.9961, 0.0039, 0.9961]);
  });
});
