import type { RgbImage } from './face-align.js';

/** Rec. 601 luma weights. */
const LUMA = [0.299, 0.587, 0.114] as const;

/** The chip in grey (luma in all three channels): a selfie compared with a portrait printed in grey. */
export function greyChip(chip: RgbImage): RgbImage {
  const out = new Uint8Array(chip.data.length);
  for (let i = 0; i < chip.data.length; i += 3) {
    const y = Math.round(LUMA[0] * chip.data[i]! + LUMA[1] * chip.data[i + 1]! + LUMA[2] * chip.data[i + 2]!);
    out[i] = out[i + 1] = out[i + 2] = y;
  }
  return { data: out, width: chip.width, height: chip.height };
}

/**
 * How much a chip's colour varies (0-255): the standard deviation of its pixels' chroma (r - g,
 * b - g) about their mean. A portrait printed in grey has none but noise, also when photographed
 * under a tinted light (the tint shifts the mean, not the spread); a face in colour has skin, lips,
 * hair and background apart.
 */
export function chromaSpread(chip: RgbImage): number {
  const n = chip.data.length / 3;
  let su = 0;
  let sv = 0;
  let suu = 0;
  let svv = 0;
  for (let i = 0; i < chip.data.length; i += 3) {
    const u = chip.data[i]! - chip.data[i + 1]!;
    const v = chip.data[i + 2]! - chip.data[i + 1]!;
    su += u;
    sv += v;
    suu += u * u;
    svv += v * v;
  }
  const varU = suu / n - (su / n) ** 2;
  const varV = svv / n - (sv / n) ** 2;
  return Math.sqrt(Math.max(0, varU + varV));
}
