import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';

/**
 * Face detection, 1024-value embedding and head pose with @vladmandic/human (MIT) on the tfjs
 * WASM backend: every model file comes from the human npm package and the WASM binaries from
 * @tensorflow/tfjs-backend-wasm; one instance per process, inputs downscaled first (the WASM heap
 * never shrinks after a large image).
 */
export interface FaceResult {
  /** Detector confidence 0-1. */
  score: number;
  embedding: number[];
  /** Head pose in degrees: yaw (left/right), pitch (up/down), roll. Signs as the camera sees them. */
  yaw: number;
  pitch: number;
  roll: number;
  /** Face box relative to the analysed image, 0-1. */
  box: [number, number, number, number];
}

interface HumanInstance {
  load(): Promise<void>;
  detect(input: unknown, config?: object): Promise<{ face: { score: number; embedding?: number[]; rotation?: { angle: { yaw: number; pitch: number; roll: number } }; boxRaw: [number, number, number, number] }[] }>;
  match: { similarity(a: number[], b: number[]): number };
  tf: { tensor3d(data: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void } };
}

const require = createRequire(import.meta.url);

let fileFetchInstalled = false;
/** Node's fetch cannot read file:// URLs, which is how human loads local models: answer those from disk only. */
function installFileFetch(): void {
  if (fileFetchInstalled) return;
  fileFetchInstalled = true;
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return realFetch(input, init);
    const body = await fs.promises.readFile(new URL(url));
    const type = url.endsWith('.json') ? 'application/json' : url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(body, { status: 200, headers: { 'Content-Type': type } });
  };
}

const RAD = 180 / Math.PI;

export class FaceAnalyzer {
  private constructor(private readonly human: HumanInstance) {}

  static async start(): Promise<FaceAnalyzer> {
    installFileFetch();
    const humanRoot = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
    const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
    // By file path: the package's exports map does not expose its WASM build.
    const { Human } = require(path.join(humanRoot, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanInstance };
    const human = new Human({
      backend: 'wasm',
      wasmPath: `${pathToFileURL(wasmDir).href}/`,
      modelBasePath: `${pathToFileURL(path.join(humanRoot, 'models')).href}/`,
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
        detector: { rotation: true, maxDetected: 1, minConfidence: 0.3 },
        mesh: { enabled: true },
        iris: { enabled: false },
        description: { enabled: true },
        emotion: { enabled: false },
        antispoof: { enabled: false },
        liveness: { enabled: false },
        attention: { enabled: false },
      },
    });
    await human.load();
    return new FaceAnalyzer(human);
  }

  /**
   * The most confident face, or null. The image is decoded straight to at most `maxSide` px.
   * `embedding: false` skips the embedding model (pose only; `embedding` is then empty).
   */
  async analyse(image: Buffer, maxSide = 512, opts: { embedding?: boolean } = {}): Promise<FaceResult | null> {
    const withEmbedding = opts.embedding ?? true;
    const { data, info } = await sharp(image).rotate().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const tensor = this.human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3], 'int32');
    try {
      // human merges a per-call config into its own for good, so every call states what it wants.
      const result = await this.human.detect(tensor, { face: { description: { enabled: withEmbedding } } });
      const face = result.face[0];
      if (!face || (withEmbedding && !face.embedding?.length)) return null;
      const angle = face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
      return { score: face.score, embedding: face.embedding ?? [], yaw: angle.yaw * RAD, pitch: angle.pitch * RAD, roll: angle.roll * RAD, box: face.boxRaw };
    } finally {
      tensor.dispose();
    }
  }

  /** Similarity of two embeddings in [0, 1] (human's normalised distance). */
  similarity(a: number[], b: number[]): number {
    return this.human.match.similarity(a, b);
  }
}
