import sharp from 'sharp';
import { cameraEffects, FAST_PNG, rawInput, toRaw, type Encoded } from './capture.js';
import type { Rng } from './random.js';
import { face } from './synthetic-documents.js';

/**
 * Selfies made from the fixture photographs (three real people, one photograph each; see
 * fixtures/faces/PROVENANCE.md): re-framed to the camera's aspect and size, the face at a drawn
 * share of the frame, rolled a little, mirrored like a front camera, lit well or badly, with
 * sensor noise and JPEG compression.
 */
export type PortraitId = 'collins' | 'hopper' | 'varshney';

/** Each photograph and where its face is (pixels of the original: centre and brow-to-chin height). */
export const PORTRAITS: Record<PortraitId, { file: string; cx: number; cy: number; faceH: number; width: number; height: number }> = {
  collins: { file: face('astronaut.png'), cx: 225, cy: 125, faceH: 120, width: 512, height: 512 },
  hopper: { file: face('grace_hopper.jpg'), cx: 265, cy: 240, faceH: 190, width: 512, height: 600 },
  varshney: { file: face('camera.png'), cx: 250, cy: 110, faceH: 100, width: 512, height: 512 },
};

export interface SelfieParams {
  width: number;
  height: number;
  /** Face height as a share of the frame height. */
  faceShare: number;
  roll: number;
  mirrored: boolean;
  light: 'good' | 'poor';
  exposure: number;
  lightFalloff: number;
  noise: number;
  defocus: number;
  quality: number;
  /** Aim the frame below the face (no face in it): the camera pointed at the chest. */
  missFace: boolean;
}

export const SELFIE_SIZES: readonly (readonly [[number, number], number])[] = [
  [[480, 640], 4],
  [[640, 480], 3],
  [[720, 1280], 2],
  [[1280, 720], 3],
  [[1080, 1440], 1],
  [[1920, 1080], 2],
  [[1536, 2048], 1],
  [[3000, 4000], 1],
  [[4000, 3000], 1],
];

export function drawSelfieParams(rng: Rng, size?: [number, number]): SelfieParams {
  const [width, height] = size ?? rng.weighted(SELFIE_SIZES);
  const light = rng.chance(0.3) ? 'poor' : 'good';
  return {
    width,
    height,
    faceShare: rng.range(0.22, 0.45),
    roll: rng.range(-7, 7),
    mirrored: rng.chance(0.5),
    light,
    exposure: light === 'good' ? rng.range(0.92, 1.12) : rng.range(0.5, 0.7),
    lightFalloff: light === 'good' ? rng.range(0, 0.2) : rng.range(0.25, 0.5),
    noise: light === 'good' ? rng.range(2, 7) : rng.range(6, 14),
    defocus: 0,
    quality: rng.int(55, 95),
    missFace: false,
  };
}

export async function renderSelfie(rng: Rng, who: PortraitId, p: SelfieParams): Promise<Encoded> {
  const src = PORTRAITS[who];
  // The crop (in original pixels) that puts the face at `faceShare` of the frame height, with a
  // margin so the roll leaves no empty corners.
  const margin = 1.2;
  const ch = (src.faceH / p.faceShare) * margin;
  const cw = (ch * p.width) / p.height;
  const cx = src.cx + rng.range(-0.08, 0.08) * cw;
  const cy = (p.missFace ? src.cy + src.faceH * 2.2 : src.cy + (0.1 * ch) / margin) + rng.range(-0.05, 0.05) * ch;
  const left = Math.round(cx - cw / 2);
  const top = Math.round(cy - ch / 2);
  const w = Math.round(cw);
  const h = Math.round(ch);
  const pad = {
    left: Math.max(0, -left),
    top: Math.max(0, -top),
    right: Math.max(0, left + w - src.width),
    bottom: Math.max(0, top + h - src.height),
  };
  // Past the photo's edge, its edge mirrored (hair, background); but for a frame aimed at the
  // chest the mirror brought the face back upside down at the bottom edge, a face the face search
  // rightly found (heldout-58be/204, 292): there the photo's last rows are repeated.
  const extended = await sharp(src.file)
    .removeAlpha()
    .toColourspace('srgb')
    .extend({ ...pad, extendWith: p.missFace ? 'copy' : 'mirror' })
    .png(FAST_PNG)
    .toBuffer();
  const outW = Math.round(p.width * margin);
  const outH = Math.round(p.height * margin);
  let img = sharp(extended)
    .extract({ left: left + pad.left, top: top + pad.top, width: w, height: h })
    .resize(outW, outH, { fit: 'fill', kernel: 'lanczos3' });
  if (outW > w * 2) img = img.sharpen({ sigma: Math.min(3, (0.5 * outW) / w) });
  if (p.mirrored) img = img.flop();
  const scaled = await toRaw(img);
  const rolled = await toRaw(sharp(scaled.data, rawInput(scaled)).rotate(p.roll, { background: '#777' }));
  let framed = sharp(rolled.data, rawInput(rolled)).extract({
    left: Math.round((rolled.width - p.width) / 2),
    top: Math.round((rolled.height - p.height) / 2),
    width: p.width,
    height: p.height,
  });
  if (p.light === 'poor') framed = framed.linear([1.05, 0.92, 0.72], [0, 0, 0]); // warm indoor lamp
  const base = await toRaw(framed.removeAlpha());
  return cameraEffects(
    rng,
    base,
    { lightFalloff: p.lightFalloff, shadow: false, exposure: p.exposure, defocus: p.defocus, noise: p.noise, quality: p.quality },
    null,
  );
}
