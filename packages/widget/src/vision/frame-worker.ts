/**
 * The frame worker: everything heavy a camera frame needs, off the page's main thread. Built on
 * its own into one script (vite.config.ts, `frameWorkerSource`) and started from a Blob URL: a
 * worker must come from the page's own origin, and the widget runs on other sites' pages.
 * - `stream`: the camera track's frames (MediaStreamTrackProcessor, where the browser has it), the
 *   newest kept, every older one closed at once so the camera never stalls;
 * - `encode`: scale a captured frame, measure its blur and encode the JPEG (under the upload cap);
 * - `guide`: read a live frame for the document guidance (guidance/advice.ts);
 * - `load` then `detect`: the face library (@vladmandic/human, the server's own) and its models
 *   from the API under content-hashed names, then per frame the face's box, yaw and pitch.
 */
import { laplacianVariance } from '@service/contract';
import { adviceFor, readFrame, type FrameMemory } from '../guidance/advice.js';
import { MEASURE_WIDTH } from '../guidance/document-measures.js';
import { BLUR_CHECK_WIDTH, BLUR_THRESHOLD, greyFromRgba } from '../quality/measures.js';

type Source = ImageBitmap | OffscreenCanvas | VideoFrame;

interface FaceResult {
  score: number;
  boxRaw: [number, number, number, number];
  rotation?: { angle?: { yaw: number; pitch: number } };
}
interface HumanLike {
  load(): Promise<void>;
  detect(input: Source): Promise<{ face: FaceResult[] }>;
  tf: { getBackend(): string };
}

const scope = self as unknown as {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent<Request>) => void) | null;
};

interface Request {
  id: number;
  type: 'stream' | 'load' | 'encode' | 'detect' | 'guide';
  readable?: ReadableStream<VideoFrame>;
  base?: string;
  bitmap?: ImageBitmap;
  blob?: Blob;
  live?: boolean;
  maxSide?: number;
  maxBytes?: number;
  blur?: boolean;
}

const RAD = 180 / Math.PI;
let faces: Promise<HumanLike | null> | null = null;
let latest: VideoFrame | null = null;
let streamId = 0;
/** The guidance's memory of the frame before (its movement is judged against it). */
let lastGuide: { memory: FrameMemory; at: number } | null = null;

async function pump(readable: ReadableStream<VideoFrame>, id: number): Promise<void> {
  const reader = readable.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (id !== streamId) {
        value.close();
        break;
      }
      latest?.close();
      latest = value;
    }
  } catch {
    /* the track stopped */
  }
  reader.cancel().catch(() => {});
  if (id === streamId && latest) {
    latest.close();
    latest = null;
  }
}

/** The newest camera frame drawn at most `maxSide` px on its longest side (waits briefly for the first). */
async function liveFrame(maxSide: number): Promise<OffscreenCanvas | null> {
  for (let i = 0; i < 40 && !latest; i++) await new Promise((r) => setTimeout(r, 50));
  if (!latest) return null;
  const w = latest.displayWidth;
  const h = latest.displayHeight;
  const scale = Math.min(1, maxSide / Math.max(w, h));
  const canvas = new OffscreenCanvas(Math.round(w * scale), Math.round(h * scale));
  canvas.getContext('2d')!.drawImage(latest, 0, 0, canvas.width, canvas.height);
  return canvas;
}

function sizeOf(source: Source): [number, number] {
  return source instanceof VideoFrame ? [source.displayWidth, source.displayHeight] : [source.width, source.height];
}

function release(source: Source | null | undefined): void {
  if (source && 'close' in source) source.close();
}

function greyOf(source: Source, width: number, height: number): { data: Uint8ClampedArray; width: number; height: number } {
  const c = new OffscreenCanvas(width, height);
  const ctx = c.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(source, 0, 0, width, height);
  return { data: greyFromRgba(ctx.getImageData(0, 0, width, height).data), width, height };
}

async function loadFaces(base: string): Promise<HumanLike | null> {
  const manifest = (await (await fetch(`${base}/widget/vision/manifest.json`)).json()) as { files: Record<string, string> };
  const name = (n: string) => manifest.files[n]!;
  const file = (n: string) => `${base}/widget/vision/${name(n)}`;
  const { Human } = (await import(/* @vite-ignore */ file('human.esm.js'))) as { Human: new (config: object) => HumanLike };
  const wasmPath = Object.fromEntries(
    ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'].map((n) => [n, file(n)]),
  );
  // WebAssembly first: in a worker it beats WebGL where there is no GPU (about 5x measured under
  // software rendering) and has no shaders to compile.
  for (const backend of ['wasm', 'webgl', 'cpu']) {
    try {
      const human = new Human({
        backend,
        wasmPath,
        modelBasePath: `${base}/widget/vision/`,
        debug: false,
        warmup: 'none',
        cacheSensitivity: 0,
        filter: { enabled: false },
        gesture: { enabled: false },
        body: { enabled: false },
        hand: { enabled: false },
        object: { enabled: false },
        segmentation: { enabled: false },
        face: {
          enabled: true,
          detector: { modelPath: name('blazeface.json'), rotation: true, maxDetected: 1, minConfidence: 0.3, return: false },
          mesh: { enabled: true, modelPath: name('facemesh.json') },
          iris: { enabled: false },
          description: { enabled: false },
          emotion: { enabled: false },
          antispoof: { enabled: false },
          liveness: { enabled: false },
          attention: { enabled: false },
        },
      });
      await human.load();
      // A first inference costs about a second: paid here, once.
      const warm = new OffscreenCanvas(128, 128);
      warm.getContext('2d')!.fillRect(0, 0, 128, 128);
      await human.detect(warm);
      return human;
    } catch {
      /* next backend */
    }
  }
  return null;
}

function meanLuma(source: Source): number {
  const grey = greyOf(source, 32, 24).data;
  let sum = 0;
  for (const v of grey) sum += v;
  return sum / grey.length;
}

async function encode(r: Request): Promise<object> {
  const source: Source | null = r.live ? await liveFrame(r.maxSide!) : (r.bitmap ?? null);
  if (!source) return { failed: true };
  const [sw, sh] = sizeOf(source);
  const scale = Math.min(1, r.maxSide! / Math.max(sw, sh));
  const w = Math.round(sw * scale);
  const h = Math.round(sh * scale);
  const canvas = new OffscreenCanvas(w, h);
  canvas.getContext('2d')!.drawImage(source, 0, 0, w, h);
  release(source);
  let blurry = false;
  if (r.blur) {
    const bh = Math.max(1, Math.round((h / w) * BLUR_CHECK_WIDTH));
    blurry = laplacianVariance(greyOf(canvas, BLUR_CHECK_WIDTH, bh).data, BLUR_CHECK_WIDTH, bh) < BLUR_THRESHOLD;
  }
  // The camera's full size as JPEG, its quality lowered only as far as the upload cap needs.
  let blob: Blob | null = null;
  for (const quality of [0.92, 0.85, 0.75, 0.6]) {
    blob = await canvas.convertToBlob({ type: 'image/jpeg', quality });
    if (!r.maxBytes || blob.size <= r.maxBytes) break;
  }
  return { blob, width: w, height: h, blurry };
}

async function detect(r: Request): Promise<object> {
  const human = faces ? await faces : null;
  let source: Source | null = r.live ? await liveFrame(r.maxSide!) : (r.bitmap ?? null);
  if (!source && r.blob) source = await createImageBitmap(r.blob);
  if (!source) return { failed: true };
  try {
    const luma = meanLuma(source);
    if (!human) return { failed: true, luma };
    const t0 = performance.now();
    const result = await human.detect(source);
    const f = result.face[0];
    const angle = f?.rotation?.angle;
    return {
      ms: performance.now() - t0,
      luma,
      face: f ? { score: f.score, box: f.boxRaw, yaw: angle ? angle.yaw * RAD : 0, pitch: angle ? angle.pitch * RAD : 0 } : null,
    };
  } finally {
    release(source);
  }
}

/** One reading of the document guidance: the frame as grey at the pipeline's blur width, judged. */
async function guide(r: Request): Promise<object> {
  const source: Source | null = r.live ? await liveFrame(2 * MEASURE_WIDTH) : (r.bitmap ?? null);
  if (!source) return { failed: true };
  const t0 = performance.now();
  try {
    const [sw, sh] = sizeOf(source);
    const grey = greyOf(source, MEASURE_WIDTH, Math.max(1, Math.round((sh / sw) * MEASURE_WIDTH)));
    // A reading long after the last one (another step, a paused loop) has nothing to move against.
    const before = lastGuide && performance.now() - lastGuide.at < 1_000 ? lastGuide.memory : null;
    const { reading, memory } = readFrame(grey, before);
    lastGuide = { memory, at: performance.now() };
    return { advice: adviceFor(reading), reading, ms: performance.now() - t0 };
  } finally {
    release(source);
  }
}

scope.onmessage = ({ data }) => {
  void (async () => {
    try {
      if (data.type === 'stream') {
        streamId++;
        latest?.close();
        latest = null;
        void pump(data.readable!, streamId);
        return;
      }
      if (data.type === 'load') {
        faces ??= loadFaces(data.base!).catch(() => null);
        const human = await faces;
        scope.postMessage({ id: data.id, ok: human !== null, backend: human ? human.tf.getBackend() : null });
        return;
      }
      const work = data.type === 'encode' ? encode : data.type === 'guide' ? guide : detect;
      scope.postMessage({ id: data.id, ...(await work(data)) });
    } catch (err) {
      scope.postMessage({ id: data.id, failed: true, error: String(err) });
    }
  })();
};
