import { LIMITS } from '@service/contract';
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { Rng } from './random.js';
import { apply, homography, warpToQuad, type Point } from './warp.js';

/**
 * The photograph of a document: a procedural background (desk, hand, fabric), the document placed
 * with rotation, perspective tilt and a frame fill, then the camera: uneven light, a shadow, a glare
 * spot, defocus, exposure, sensor noise and JPEG compression within the upload limit.
 */
export type Background = 'desk' | 'hand' | 'fabric';

export interface CaptureParams {
  frameW: number;
  frameH: number;
  /** Share of the frame the document's bounding box fills along its limiting side (0.45-0.95). */
  fill: number;
  /** In-plane rotation, degrees. */
  rotation: number;
  /** Perspective tilt, degrees, about an axis in the document plane at `tiltAxis` degrees. */
  tilt: number;
  tiltAxis: number;
  /** Where the document sits in the free margin, -1..1 on each axis. */
  offset: [number, number];
  background: Background;
  /** Strength of the light gradient across the frame (0: even light). */
  lightFalloff: number;
  shadow: boolean;
  glare: 'none' | 'spot' | 'over_fields';
  /** Multiplies every pixel (below 1: under-exposed). */
  exposure: number;
  /** Gaussian defocus as a share of the frame width (0: sharp). */
  defocus: number;
  /** Sensor noise, standard deviation in grey levels. */
  noise: number;
  quality: number;
}

/** Small intermediate images: uncompressed PNG (compression costs time and gains nothing here). */
export const FAST_PNG = { compressionLevel: 0, adaptiveFiltering: false } as const;

export interface Encoded {
  jpeg: Buffer;
  /** The JPEG quality actually used (lowered from the drawn one when the frame would exceed 2 MiB). */
  quality: number;
}

/** JPEG at the drawn quality, lowered in steps of 5 (never under 40) until it fits the upload limit. */
export async function encodeWithinLimit(img: RawImage, quality: number): Promise<Encoded> {
  const limit = LIMITS.imageMaxBytes - 16 * 1024;
  let q = Math.round(quality);
  for (;;) {
    const jpeg = await sharp(img.data, rawInput(img)).jpeg({ quality: q }).toBuffer();
    if (jpeg.length <= limit || q <= 40) {
      if (jpeg.length > LIMITS.imageMaxBytes) throw new Error(`evaluation image over the upload limit at quality ${q}`);
      return { jpeg, quality: q };
    }
    q -= 5;
  }
}

/** Where the document's corners land in the frame, and how wide (pixels) it should be drawn. */
export function documentQuad(aspect: number, p: CaptureParams): { quad: Point[]; drawWidth: number } {
  const w = 1;
  const h = 1 / aspect;
  const corners: [number, number][] = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ];
  const t = (p.tilt * Math.PI) / 180;
  const a = (p.tiltAxis * Math.PI) / 180;
  const [ax, ay] = [Math.cos(a), Math.sin(a)];
  const r = (p.rotation * Math.PI) / 180;
  const distance = 1.6; // camera distance in document widths: a phone held over a desk
  const projected = corners.map(([x, y]) => {
    // Rodrigues rotation of (x, y, 0) about the in-plane unit axis (ax, ay, 0) by the tilt.
    const dot = x * ax + y * ay;
    const cos = Math.cos(t);
    const sin = Math.sin(t);
    const X = x * cos + ax * dot * (1 - cos);
    const Y = y * cos + ay * dot * (1 - cos);
    const Z = (ax * y - ay * x) * sin;
    const k = distance / (distance + Z);
    const px = X * k;
    const py = Y * k;
    return [px * Math.cos(r) - py * Math.sin(r), px * Math.sin(r) + py * Math.cos(r)] as [number, number];
  });
  const xs = projected.map((q) => q[0]);
  const ys = projected.map((q) => q[1]);
  const bw = Math.max(...xs) - Math.min(...xs);
  const bh = Math.max(...ys) - Math.min(...ys);
  const scale = p.fill / Math.max(bw / p.frameW, bh / p.frameH);
  const cx = (p.frameW - bw * scale) / 2;
  const cy = (p.frameH - bh * scale) / 2;
  const ox = p.frameW / 2 + p.offset[0] * cx * 0.9 - ((Math.max(...xs) + Math.min(...xs)) / 2) * scale;
  const oy = p.frameH / 2 + p.offset[1] * cy * 0.9 - ((Math.max(...ys) + Math.min(...ys)) / 2) * scale;
  const quad = projected.map(([x, y]) => [x * scale + ox, y * scale + oy] as Point);
  const edge = (i: number, j: number) => Math.hypot(quad[i]![0] - quad[j]![0], quad[i]![1] - quad[j]![1]);
  return { quad, drawWidth: Math.max(edge(0, 1), edge(3, 2)) };
}

const svg = (w: number, h: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);

/** Smooth layers are drawn small and scaled up: the same look, a fraction of the work. */
const SMALL = 1024;

/** A full-frame image kept raw between steps (encoding 12 MP frames between steps costs seconds). */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

export const rawInput = (r: RawImage) => ({ raw: { width: r.width, height: r.height, channels: r.channels } });
const overlayOf = (r: RawImage, extra: Partial<OverlayOptions> = {}): OverlayOptions => ({ input: r.data, ...rawInput(r), ...extra });

export async function toRaw(s: Sharp): Promise<RawImage> {
  const { data, info } = await s.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

async function layer(W: number, H: number, draw: (w: number, h: number) => string, softenShare = 0): Promise<RawImage> {
  const s = Math.min(1, SMALL / Math.max(W, H));
  const w = Math.max(8, Math.round(W * s));
  const h = Math.max(8, Math.round(H * s));
  // Drawn once at the small size, then scaled: librsvg renders per output tile otherwise (once
  // per tile, a minute for a 12 MP frame). sharp's blur, not an SVG filter, for the same reason.
  const small = await toRaw(sharp(svg(w, h, draw(w, h))));
  let img = sharp(small.data, rawInput(small));
  if (softenShare > 0) img = sharp((await toRaw(img.blur(Math.max(0.3, softenShare * w)))).data, rawInput(small));
  return toRaw(img.resize(W, H, { fit: 'fill' }));
}

/**
 * Sensor noise: one gaussian tile per strength, repeated over the frame. Drawn from a seeded
 * source, not libvips' own noise (unseeded: every build of a case would differ, and so would its
 * verdict).
 */
const noiseTiles = new Map<string, RawImage>();
function noiseTile(sigma: number, maxSide: number): RawImage {
  const side = Math.min(509, maxSide);
  const s = Math.round(sigma);
  const key = `${s}/${side}`;
  let tile = noiseTiles.get(key);
  if (!tile) {
    const rng = Rng.of('sensor-noise', key);
    const data = Buffer.alloc(side * side * 3);
    for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, Math.round(128 + s * rng.gauss())));
    tile = { data, width: side, height: side, channels: 3 };
    noiseTiles.set(key, tile);
  }
  return tile;
}

function backgroundSvg(rng: Rng, kind: Background, w: number, h: number): string {
  if (kind === 'desk') {
    if (rng.chance(0.3)) {
      const l = rng.int(70, 92);
      return `<rect width="${w}" height="${h}" fill="hsl(${rng.int(20, 220)},${rng.int(3, 15)}%,${l}%)"/>`;
    }
    const hue = rng.int(18, 38);
    const light = rng.int(28, 58);
    const streaks: string[] = [];
    for (let i = 0; i < 70; i++) {
      const y = rng.range(-0.1, 1.1) * h;
      const amp = rng.range(2, 14);
      const per = rng.range(0.3, 1.2) * w;
      let d = '';
      for (let x = -10; x <= w + 10; x += w / 40)
        d += `${d ? 'L' : 'M'}${x.toFixed(1)},${(y + amp * Math.sin((x / per) * 6.28)).toFixed(1)}`;
      streaks.push(
        `<path d="${d}" fill="none" stroke="hsl(${hue},${rng.int(30, 55)}%,${light + rng.int(-14, 12)}%)" stroke-width="${rng.range(1, 6).toFixed(1)}" opacity="${rng.range(0.25, 0.6).toFixed(2)}"/>`,
      );
    }
    return `<rect width="${w}" height="${h}" fill="hsl(${hue},45%,${light}%)"/>${streaks.join('')}`;
  }
  if (kind === 'fabric') {
    const hue = rng.int(0, 359);
    const light = rng.int(25, 65);
    const period = rng.range(4, 9);
    return `<defs><pattern id="weave" width="${period}" height="${period}" patternUnits="userSpaceOnUse">
        <rect width="${period}" height="${period}" fill="hsl(${hue},${rng.int(15, 50)}%,${light}%)"/>
        <path d="M0,${period / 2}H${period}" stroke="hsl(${hue},30%,${light + 10}%)" stroke-width="${period / 3}"/>
        <path d="M${period / 2},0V${period}" stroke="hsl(${hue},30%,${light - 10}%)" stroke-width="${period / 4}" opacity="0.7"/>
      </pattern>
      <linearGradient id="fold" x1="0" y1="0" x2="1" y2="${rng.range(0.2, 1).toFixed(2)}">
        <stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="0.5" stop-color="#000" stop-opacity="${rng.range(0.1, 0.35).toFixed(2)}"/><stop offset="1" stop-color="#000" stop-opacity="0"/>
      </linearGradient></defs>
      <rect width="${w}" height="${h}" fill="url(#weave)"/><rect width="${w}" height="${h}" fill="url(#fold)"/>`;
  }
  // hand: a room behind, out of focus
  const hue = rng.int(0, 359);
  return `<defs><linearGradient id="room" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},15%,${rng.int(55, 80)}%)"/><stop offset="1" stop-color="hsl(${(hue + 30) % 360},20%,${rng.int(25, 50)}%)"/></linearGradient></defs>
    <rect width="${w}" height="${h}" fill="url(#room)"/>
    <rect x="${rng.range(0, 0.6) * w}" y="${rng.range(0, 0.4) * h}" width="${rng.range(0.1, 0.4) * w}" height="${rng.range(0.3, 0.7) * h}" fill="hsl(${rng.int(0, 359)},20%,${rng.int(30, 70)}%)" opacity="0.6"/>`;
}

const SKIN = ['#f1c8a8', '#e0ac89', '#c68b66', '#a0694a', '#7a4b33', '#5a3725'];

/** The hand holding the card: a palm behind it and a thumb over one edge (never over the fields). */
function handLayers(rng: Rng, quad: readonly Point[]): { palm: string; thumb: string } {
  const skin = rng.pick(SKIN);
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  const docW = Math.hypot(tr[0] - tl[0], tr[1] - tl[1]);
  const cx = (bl[0] + br[0]) / 2;
  const cy = (bl[1] + br[1]) / 2;
  const palm = `<ellipse cx="${cx}" cy="${cy + docW * 0.15}" rx="${docW * 0.45}" ry="${docW * 0.35}" fill="${skin}"/>`;
  // Thumb on the left or right edge, at mid height, overlapping about 2% of the width.
  const left = rng.chance(0.5);
  const [a, b] = left ? [tl, bl] : [tr, br];
  const mx = (a[0] + b[0]) / 2;
  const my = (a[1] + b[1]) / 2;
  const dirX = left ? tl[0] - tr[0] : tr[0] - tl[0];
  const dirY = left ? tl[1] - tr[1] : tr[1] - tl[1];
  const len = Math.hypot(dirX, dirY);
  const rx = docW * 0.05;
  const tx = mx + (dirX / len) * rx * 0.6;
  const ty = my + (dirY / len) * rx * 0.6;
  const angle = (Math.atan2(b[1] - a[1], b[0] - a[0]) * 180) / Math.PI;
  const thumb = `<ellipse cx="${tx}" cy="${ty}" rx="${rx}" ry="${rx * 2.2}" transform="rotate(${angle - 90} ${tx} ${ty})" fill="${skin}"/>`;
  return { palm, thumb };
}

/** The camera: uneven light, shadow, glare, exposure, defocus, noise, JPEG. */
export async function cameraEffects(
  rng: Rng,
  base: RawImage,
  p: Pick<CaptureParams, 'lightFalloff' | 'shadow' | 'exposure' | 'defocus' | 'noise' | 'quality'>,
  glare: { x: number; y: number; r: number; full: boolean } | null,
): Promise<Encoded> {
  const W = base.width;
  const H = base.height;
  const overlays: OverlayOptions[] = [];
  if (p.lightFalloff > 0) {
    const ang = rng.range(0, 360);
    const lo = Math.round(255 * (1 - p.lightFalloff));
    const light = await layer(
      W,
      H,
      (w, h) =>
        `<defs><linearGradient id="l" gradientTransform="rotate(${ang.toFixed(0)} 0.5 0.5)"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="rgb(${lo},${lo},${lo})"/></linearGradient></defs><rect width="${w}" height="${h}" fill="url(#l)"/>`,
    );
    overlays.push(overlayOf(light, { blend: 'multiply' }));
  }
  if (p.shadow) {
    const pts = Array.from({ length: 4 }, () => [rng.range(-0.2, 1.2), rng.range(-0.2, 1.2)] as const);
    const dark = rng.int(120, 185);
    const shadow = await layer(
      W,
      H,
      (w, h) =>
        `<rect width="${w}" height="${h}" fill="#fff"/><polygon points="${pts
          .map(([x, y]) => `${(x * w).toFixed(1)},${(y * h).toFixed(1)}`)
          .join(' ')}" fill="rgb(${dark},${dark},${dark})"/>`,
      1 / 60,
    );
    overlays.push(overlayOf(shadow, { blend: 'multiply' }));
  }
  let img = overlays.length ? await toRaw(sharp(base.data, rawInput(base)).composite(overlays)) : base;
  if (p.exposure !== 1) img = await toRaw(sharp(img.data, rawInput(img)).linear(p.exposure, 0));
  // A specular reflection is far brighter than the paper: the sensor clips it whatever the
  // exposure, so the glare goes on after it (until generator version 2 it was dimmed with the
  // rest, which no camera does).
  if (glare) {
    const g = await layer(W, H, (w, h) => {
      const s = w / W;
      const core = glare.full ? 0.55 : 0.25;
      return `<defs><radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="1"/><stop offset="${core}" stop-color="#fff" stop-opacity="1"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><rect width="${w}" height="${h}" fill="#000"/><ellipse cx="${glare.x * s}" cy="${glare.y * s}" rx="${glare.r * s * 1.3}" ry="${glare.r * s}" fill="url(#g)"/>`;
    });
    img = await toRaw(sharp(img.data, rawInput(img)).composite([overlayOf(g, { blend: 'screen' })]));
  }
  // Defocus, then the sensor's noise over it (sharp composites after the other operations).
  let s = sharp(img.data, rawInput(img));
  if (p.defocus > 0) s = s.blur(Math.max(0.3, p.defocus * W));
  if (p.noise > 0) s = s.composite([{ ...overlayOf(noiseTile(p.noise, Math.min(W, H)), { blend: 'overlay' }), tile: true }]);
  img = await toRaw(s.removeAlpha());
  return encodeWithinLimit(img, p.quality);
}

/** The document (and a hand, if any) photographed over its background. */
export async function photographDocument(
  rng: Rng,
  doc: { png: Buffer; width: number; height: number; fields: { x: number; y: number; w: number; h: number } },
  quad: readonly Point[],
  p: CaptureParams,
): Promise<Encoded> {
  const W = p.frameW;
  const H = p.frameH;
  const raw = await sharp(doc.png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const patch = warpToQuad(raw.data, raw.info.width, raw.info.height, quad);
  const overlays: OverlayOptions[] = [];
  const hand = p.background === 'hand' ? handLayers(rng, quad) : null;
  if (hand) overlays.push({ input: svg(W, H, hand.palm) });
  // Clip the patch to the frame (a document may touch the edge).
  const left = Math.max(0, patch.left);
  const top = Math.max(0, patch.top);
  const right = Math.min(W, patch.left + patch.width);
  const bottom = Math.min(H, patch.top + patch.height);
  const docLayer = await toRaw(
    sharp(patch.data, { raw: { width: patch.width, height: patch.height, channels: 4 } }).extract({
      left: left - patch.left,
      top: top - patch.top,
      width: right - left,
      height: bottom - top,
    }),
  );
  overlays.push(overlayOf(docLayer, { left, top }));
  if (hand) overlays.push({ input: svg(W, H, hand.thumb) });
  const s = Math.min(1, SMALL / Math.max(W, H));
  const bw = Math.max(8, Math.round(W * s));
  const bh = Math.max(8, Math.round(H * s));
  const smallBackground = await toRaw(sharp(svg(bw, bh, backgroundSvg(rng, p.background, bw, bh))).removeAlpha());
  const background = await toRaw(sharp(smallBackground.data, rawInput(smallBackground)).resize(W, H, { fit: 'fill' }));
  const base = await toRaw(sharp(background.data, rawInput(background)).composite(overlays).removeAlpha());

  let glare: { x: number; y: number; r: number; full: boolean } | null = null;
  const toFrame = homography(
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ],
    quad,
  );
  const docW = Math.hypot(quad[1]![0] - quad[0]![0], quad[1]![1] - quad[0]![1]);
  if (p.glare === 'over_fields') {
    const f = doc.fields;
    const [gx, gy] = apply(toFrame, [f.x + f.w * rng.range(0.3, 0.6), f.y + f.h * rng.range(0.25, 0.6)]);
    glare = { x: gx, y: gy, r: docW * rng.range(0.22, 0.32), full: true };
  } else if (p.glare === 'spot') {
    // A small reflection off the laminate, somewhere on the document.
    const [gx, gy] = apply(toFrame, [rng.range(0.1, 0.9), rng.range(0.1, 0.9)]);
    glare = { x: gx, y: gy, r: docW * rng.range(0.025, 0.06), full: false };
  }
  return cameraEffects(rng, base, p, glare);
}
