import { laplacianVariance } from '@service/contract';
import { BLUR_CHECK_WIDTH, BLUR_THRESHOLD, greyFromRgba } from '../quality/measures.js';

/**
 * The frame worker's code, as text: a worker must come from the page's own origin, and the
 * widget runs on other sites' pages, so it is started from a Blob URL. It does every heavy thing
 * a frame needs, off the page's main thread:
 * - `encode`: scale a captured frame, measure its blur (the same measure as the server's) and
 *   encode the JPEG;
 * - `load` then `detect`: the face library (@vladmandic/human, the server's own, so both measure
 *   head pose the same way) and its models from the API under content-hashed names (WebAssembly
 *   backend first), warmed up once (a first inference costs about a second), then per frame the
 *   face's box, score, yaw and pitch in degrees, and the frame's mean brightness.
 * The shared measures are inlined from their one implementation, never retyped.
 */
export function workerSource(): string {
  return `
const laplacianVariance = (${laplacianVariance.toString()});
const greyFromRgba = (${greyFromRgba.toString()});
const BLUR_CHECK_WIDTH = ${BLUR_CHECK_WIDTH};
const BLUR_THRESHOLD = ${BLUR_THRESHOLD};
const RAD = 180 / Math.PI;
let ready = null;
// The camera's frames, when the page could hand its track over (MediaStreamTrackProcessor): the
// newest one is kept, every older one closed at once so the camera never stalls.
let latest = null;
let streamId = 0;

async function pump(readable, id) {
  const reader = readable.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (id !== streamId) {
        value.close();
        break;
      }
      if (latest) latest.close();
      latest = value;
    }
  } catch (err) {
    /* the track stopped */
  }
  reader.cancel().catch(() => {});
  if (id === streamId && latest) {
    latest.close();
    latest = null;
  }
}

/** The newest camera frame as a bitmap source of at most maxSide px (waits briefly for the first). */
async function liveFrame(maxSide) {
  for (let i = 0; i < 40 && !latest; i++) await new Promise((r) => setTimeout(r, 50));
  if (!latest) return null;
  const w = latest.displayWidth;
  const h = latest.displayHeight;
  const scale = Math.min(1, maxSide / Math.max(w, h));
  const canvas = new OffscreenCanvas(Math.round(w * scale), Math.round(h * scale));
  canvas.getContext('2d').drawImage(latest, 0, 0, canvas.width, canvas.height);
  return canvas;
}

function release(source) {
  if (source && typeof source.close === 'function') source.close();
}

async function load(base) {
  const manifest = await (await fetch(base + '/widget/vision/manifest.json')).json();
  const name = (n) => manifest.files[n];
  const file = (n) => base + '/widget/vision/' + name(n);
  const { Human } = await import(file('human.esm.js'));
  const wasmPath = {
    'tfjs-backend-wasm.wasm': file('tfjs-backend-wasm.wasm'),
    'tfjs-backend-wasm-simd.wasm': file('tfjs-backend-wasm-simd.wasm'),
    'tfjs-backend-wasm-threaded-simd.wasm': file('tfjs-backend-wasm-threaded-simd.wasm'),
  };
  // WebAssembly first: in a worker it beats WebGL where there is no GPU (about 5x measured under
  // software rendering) and has no shaders to compile.
  for (const backend of ['wasm', 'webgl', 'cpu']) {
    try {
      const human = new Human({
        backend, wasmPath, modelBasePath: base + '/widget/vision/', debug: false, warmup: 'none', cacheSensitivity: 0,
        filter: { enabled: false }, gesture: { enabled: false }, body: { enabled: false }, hand: { enabled: false },
        object: { enabled: false }, segmentation: { enabled: false },
        face: {
          enabled: true,
          detector: { modelPath: name('blazeface.json'), rotation: true, maxDetected: 1, minConfidence: 0.3, return: false },
          mesh: { enabled: true, modelPath: name('facemesh.json') },
          iris: { enabled: false }, description: { enabled: false }, emotion: { enabled: false },
          antispoof: { enabled: false }, liveness: { enabled: false }, attention: { enabled: false },
        },
      });
      await human.load();
      const warm = new OffscreenCanvas(128, 128);
      warm.getContext('2d').fillRect(0, 0, 128, 128);
      await human.detect(warm);
      return human;
    } catch (err) {
      /* next backend */
    }
  }
  return null;
}

function luma(bitmap) {
  const c = new OffscreenCanvas(32, 24);
  const ctx = c.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(bitmap, 0, 0, 32, 24);
  const grey = greyFromRgba(ctx.getImageData(0, 0, 32, 24).data);
  let sum = 0;
  for (const v of grey) sum += v;
  return sum / grey.length;
}

async function encode({ bitmap, maxSide, blur, live }) {
  if (live) bitmap = await liveFrame(maxSide);
  if (!bitmap) return { failed: true };
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const w = Math.round(bitmap.width * scale);
  const h = Math.round(bitmap.height * scale);
  const canvas = new OffscreenCanvas(w, h);
  canvas.getContext('2d').drawImage(bitmap, 0, 0, w, h);
  release(bitmap);
  let blurry = false;
  if (blur) {
    const bw = BLUR_CHECK_WIDTH;
    const bh = Math.max(1, Math.round((h / w) * bw));
    const small = new OffscreenCanvas(bw, bh);
    const ctx = small.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(canvas, 0, 0, bw, bh);
    blurry = laplacianVariance(greyFromRgba(ctx.getImageData(0, 0, bw, bh).data), bw, bh) < BLUR_THRESHOLD;
  }
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
  return { blob, width: w, height: h, blurry };
}

async function detect({ bitmap, blob, live, maxSide }) {
  const human = ready ? await ready : null;
  if (live) bitmap = await liveFrame(maxSide);
  else if (!bitmap) bitmap = await createImageBitmap(blob);
  if (!bitmap) return { failed: true };
  try {
    const brightness = luma(bitmap);
    if (!human) return { failed: true, luma: brightness };
    const t0 = performance.now();
    const result = await human.detect(bitmap);
    const f = result.face[0];
    const angle = f && f.rotation ? f.rotation.angle : null;
    return {
      ms: performance.now() - t0,
      luma: brightness,
      face: f ? { score: f.score, box: f.boxRaw, yaw: angle ? angle.yaw * RAD : 0, pitch: angle ? angle.pitch * RAD : 0 } : null,
    };
  } finally {
    release(bitmap);
  }
}

self.onmessage = async ({ data }) => {
  try {
    if (data.type === 'stream') {
      streamId++;
      if (latest) latest.close();
      latest = null;
      pump(data.readable, streamId);
      return;
    }
    if (data.type === 'load') {
      ready ??= load(data.base).catch(() => null);
      const human = await ready;
      self.postMessage({ id: data.id, ok: human !== null, backend: human ? human.tf.getBackend() : null });
    } else if (data.type === 'encode') {
      self.postMessage({ id: data.id, ...(await encode(data)) });
    } else {
      self.postMessage({ id: data.id, ...(await detect(data)) });
    }
  } catch (err) {
    self.postMessage({ id: data.id, failed: true, error: String(err) });
  }
};
`;
}
