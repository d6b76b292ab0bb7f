/**
 * Where the face is and its five alignment points, found once per image with the service's own
 * detector and mesh (@vladmandic/human's blazeface and facemesh, as in the pipeline's face stage),
 * so every descriptor measured sees the same face and only the descriptor and its crop differ.
 *
 * Two passes, as the service's document search does: the detector on the image scaled down (and,
 * when it finds nothing, on overlapping tiles of it), then detector and mesh again on a square of
 * 2.4 face sizes around the find, scaled to MESH_SIDE, where the face is large; the mesh's points
 * are mapped back to the image's own pixels.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { HUMAN_MODELS_DIR } from '@service/api/pipeline/read/faces/faces';
import type { FivePoints, RgbImage } from './align.js';
import { fivePointsOfMesh } from '@service/api/pipeline/read/faces/descriptor/mesh-points';

/** The face found: its five points and box in the image's pixels. */
export interface FoundFace {
  points: FivePoints;
  /** [x, y, width, height] in pixels. */
  box: [number, number, number, number];
  /** The mesh's confidence (human's face score). */
  score: number;
  /** Head yaw in degrees, as human reads it. */
  yaw: number;
}

const LOCATE_SIDE = 640;
const MESH_SIDE = 512;
const MIN_SCORE = 0.5;

interface HumanFace {
  score: number;
  boxRaw: [number, number, number, number];
  mesh?: [number, number, number][];
  rotation?: { angle: { yaw: number } };
}
interface HumanLike {
  load(): Promise<void>;
  detect(input: unknown, config?: object): Promise<{ face: HumanFace[] }>;
  tf: {
    tensor3d(data: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void };
  };
}

const require = createRequire(import.meta.url);

let fetchInstalled = false;
/** Node's fetch cannot read file:// URLs, which is how human loads local models. */
export function installFileFetch(): void {
  if (fetchInstalled) return;
  fetchInstalled = true;
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return realFetch(input, init);
    const { readFile } = await import('node:fs/promises');
    const type = url.endsWith('.json') ? 'application/json' : url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(await readFile(new URL(url)), { status: 200, headers: { 'Content-Type': type } });
  };
}

/** human (its WASM build) with the detector and mesh only; its tfjs namespace runs the descriptors too. */
export async function startHuman(): Promise<HumanLike & { tf: Record<string, unknown> }> {
  installFileFetch();
  const humanRoot = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
  const { Human } = require(path.join(humanRoot, 'dist', 'human.node-wasm.js')) as { Human: new (c: object) => HumanLike };
  const models = `${pathToFileURL(HUMAN_MODELS_DIR).href}/`;
  const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  const human = new Human({
    backend: 'wasm',
    wasmPath: `${pathToFileURL(wasmDir).href}/`,
    modelBasePath: models,
    debug: false,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 1, minConfidence: MIN_SCORE },
      mesh: { enabled: true },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
    },
  });
  await human.load();
  return human as HumanLike & { tf: Record<string, unknown> };
}

/** An image's pixels, EXIF-rotated, 8-bit RGB, its longer side at most `maxSide`. */
export async function readRgb(image: Buffer | string, maxSide = 4096): Promise<RgbImage> {
  const { data, info } = await sharp(image)
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

export class FaceFinder {
  private constructor(private readonly human: HumanLike) {}

  static async start(): Promise<FaceFinder> {
    return new FaceFinder(await startHuman());
  }

  /** The surest face of the image, or null when neither pass finds one. */
  async find(img: RgbImage): Promise<FoundFace | null> {
    for (const region of regions()) {
      const located = await this.locate(img, region);
      if (!located) continue;
      const face = await this.meshAround(img, located);
      if (face) return face;
    }
    return null;
  }

  /** A face box (pixels) found by the detector on a region of the image (relative), or null. */
  private async locate(img: RgbImage, r: { left: number; top: number; size: number }): Promise<[number, number, number, number] | null> {
    const left = Math.round(r.left * img.width);
    const top = Math.round(r.top * img.height);
    const width = Math.min(img.width - left, Math.round(r.size * img.width));
    const height = Math.min(img.height - top, Math.round(r.size * img.height));
    const found = await this.detect(img, { left, top, width, height }, LOCATE_SIDE, false);
    if (!found) return null;
    const [x, y, w, h] = found.boxRaw;
    return [left + x * width, top + y * height, w * width, h * height];
  }

  /** Detector and mesh on a square of 2.4 face sizes around `box`, points in the image's pixels. */
  private async meshAround(img: RgbImage, [bx, by, bw, bh]: [number, number, number, number]): Promise<FoundFace | null> {
    const side = Math.min(img.width, img.height, Math.round(2.4 * Math.max(bw, bh)));
    const left = Math.max(0, Math.min(img.width - side, Math.round(bx + bw / 2 - side / 2)));
    const top = Math.max(0, Math.min(img.height - side, Math.round(by + bh / 2 - side / 2)));
    const found = await this.detect(img, { left, top, width: side, height: side }, MESH_SIDE, true);
    if (!found?.mesh || found.mesh.length < 468) return null;
    const scale = side / MESH_SIDE;
    const mesh = found.mesh.map(([x, y]) => [left + x * scale, top + y * scale]);
    const [x, y, w, h] = found.boxRaw;
    return {
      points: fivePointsOfMesh(mesh),
      box: [left + x * side, top + y * side, w * side, h * side],
      score: found.score,
      yaw: ((found.rotation?.angle.yaw ?? 0) * 180) / Math.PI,
    };
  }

  /** human on a region of the image scaled to `side` (enlarged when smaller). */
  private async detect(
    img: RgbImage,
    r: { left: number; top: number; width: number; height: number },
    side: number,
    mesh: boolean,
  ): Promise<HumanFace | null> {
    const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
      .extract(r)
      .resize(side, side, { fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const t = this.human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3], 'int32');
    try {
      const face = (await this.human.detect(t, { face: { mesh: { enabled: mesh } } })).face[0];
      return face && face.score >= MIN_SCORE ? face : null;
    } finally {
      t.dispose();
    }
  }
}

/** The whole image, then overlapping tiles of 0.45 of it at steps of 0.275 (a face under a fifth of the picture lies whole in one). */
function regions(): { left: number; top: number; size: number }[] {
  const tiles = [0, 0.275, 0.55].flatMap((top) => [0, 0.275, 0.55].map((left) => ({ left, top, size: 0.45 })));
  return [{ left: 0, top: 0, size: 1 }, ...tiles];
}
