/**
 * A face's crop for a descriptor: the region around the face resampled to the template's scale
 * with a proper filter (lanczos3, down for a selfie's large face, up for a printed portrait's
 * small one), then warped onto the template (rotation and sub-pixel shift, bilinear). Options are
 * the preparations measured: grey (Rec. 601 luma in all three channels) and local contrast
 * equalisation (CLAHE).
 */
import sharp from 'sharp';
import { warpToTemplate, type FivePoints, type RgbImage, type Template } from './align.js';
import { resampledRegion } from '@service/api/pipeline/read/faces/descriptor/face-crop';

export interface Preparation {
  /** Luma in all three channels. */
  grey?: boolean;
  /** 'lanczos': the region resampled to the template's scale first (default); 'bilinear': warped straight from the image. */
  resample?: 'lanczos' | 'bilinear';
  /** The crop not turned to level the eyes (a box around the face, scaled and placed by the points): alignment's worth, measured. */
  upright?: boolean;
  /** CLAHE on the crop (sharp's, over tiles of a quarter of the crop, slope limit 3). */
  equalise?: boolean;
}

const LUMA: [number, number, number] = [0.299, 0.587, 0.114];

export async function prepareCrop(img: RgbImage, points: FivePoints, template: Template, prep: Preparation = {}): Promise<RgbImage> {
  let source = img;
  let at = points;
  if ((prep.resample ?? 'lanczos') === 'lanczos') {
    ({ source, at } = await resampledRegion(img, points, template));
  }
  let crop = warpToTemplate(source, at, template, { upright: prep.upright ?? false });
  if (prep.grey) crop = grey(crop);
  if (prep.equalise) {
    const tile = Math.max(2, Math.round(crop.width / 4));
    const { data, info } = await sharp(crop.data, { raw: { width: crop.width, height: crop.height, channels: 3 } })
      .clahe({ width: tile, height: tile, maxSlope: 3 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    crop = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  }
  return crop;
}

/** Rec. 601 luma in all three channels (8-bit, rounded). */
export function grey(img: RgbImage): RgbImage {
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i += 3) {
    const y = Math.round(LUMA[0] * img.data[i]! + LUMA[1] * img.data[i + 1]! + LUMA[2] * img.data[i + 2]!);
    out[i] = out[i + 1] = out[i + 2] = y;
  }
  return { data: out, width: img.width, height: img.height };
}
