/**
 * A face's aligned crop: the region around the face resampled to the template's scale with
 * lanczos3 (down for a selfie's large face, up for a printed portrait's small one), then warped
 * onto the template (rotation and sub-pixel shift, bilinear). Bilinear sampling alone aliases a
 * large face and blurs nothing into a small one.
 */
import sharp from 'sharp';
import {
  applySimilarity,
  eyeDistance,
  invertSimilarity,
  similarityTransform,
  warpToTemplate,
  type FivePoints,
  type RgbImage,
  type Template,
} from './face-align.js';

export async function alignedCrop(img: RgbImage, points: FivePoints, template: Template): Promise<RgbImage> {
  const { source, at } = await resampledRegion(img, points, template);
  return warpToTemplate(source, at, template);
}

/**
 * The part of the image the template's crop covers (with a margin for the rotation), resized so
 * the face's eye distance is the template's: the points moved to the region's pixels.
 */
export async function resampledRegion(
  img: RgbImage,
  points: FivePoints,
  template: Template,
): Promise<{ source: RgbImage; at: FivePoints }> {
  const factor = eyeDistance(template.points) / eyeDistance(points);
  const back = invertSimilarity(similarityTransform(points, template.points));
  const corners = [
    [0, 0],
    [template.width, 0],
    [0, template.height],
    [template.width, template.height],
  ].map((p) => applySimilarity(back, p as [number, number]));
  const margin = 4 / factor;
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0])) - margin));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1])) - margin));
  const x1 = Math.min(img.width, Math.ceil(Math.max(...corners.map((c) => c[0])) + margin));
  const y1 = Math.min(img.height, Math.ceil(Math.max(...corners.map((c) => c[1])) + margin));
  if (x1 - x0 < 2 || y1 - y0 < 2) return { source: img, at: points };
  const width = Math.max(1, Math.round((x1 - x0) * factor));
  const height = Math.max(1, Math.round((y1 - y0) * factor));
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sx = info.width / (x1 - x0);
  const sy = info.height / (y1 - y0);
  // Pixel centres: the region's pixel i covers the image's x0 + (i + 0.5) / sx - 0.5.
  const at = points.map(([x, y]) => [(x - x0 + 0.5) * sx - 0.5, (y - y0 + 0.5) * sy - 0.5]) as FivePoints;
  return { source: { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height }, at };
}
