/**
 * A face's crop for a descriptor: the region around the face resampled to the template's scale
 * with a proper filter (lanczos3, down for a selfie's large face, up for a printed portrait's
 * small one), then warped onto the template (rotation and sub-pixel shift, bilinear). Options are
 * the preparations measured: grey (Rec. 601 luma in all three channels) and local contrast
 * equalisation (CLAHE).
 */
import sharp from 'sharp';
import { warpToTemplate, type FivePoints, type RgbImage, type Template } from './align.js';
import { resampledRegion } from './winner/face-crop.js';

export interface Preparation {
  /** Luma in all three channels. */
  grey?: boolean;
  /** 'lanczos': the region resampled to the template's scale first (default); 'bilinear': warped straight from the image. */
  resample?: 'lanczos' | 'bilinear';
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
  let crop = warpToTemplate(source, at, template);
  if (prep.grey || prep.equalise) {
    let s = sharp(crop.data, { raw: { width: crop.width, height: crop.height, channels: 3 } });
    if (prep.grey) s = s.recomb([LUMA, LUMA, LUMA]);
    if (prep.equalise) {
      const tile = Math.max(2, Math.round(crop.width / 4));
      s = s.clahe({ width: tile, height: tile, maxSlope: 3 });
    }
    const { data, info } = await s.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    crop = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  }
  return crop;
}
