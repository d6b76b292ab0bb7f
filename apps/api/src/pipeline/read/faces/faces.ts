import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fuseActivations, readWeights, scalarReader, type GraphModelJson } from './fuse-activations.js';
import { decodeImage, fromDecoded, type DecodedImage, type Region } from '../../decode/decode.js';
import type { FaceModels } from './face-models.js';
import { onnxRuntimeExecute, type TfjsGraphModel, type TfjsTensors } from './onnx/native-graph-model.js';
import { POLICY } from '../../decide/policy.js';
import { greyChip, chromaSpread } from './descriptor/chip-colour.js';
import { alignedCrop } from './descriptor/face-crop.js';
import { DLIB_150 } from './descriptor/face-align.js';
import { FaceDescriptor } from './descriptor/face-descriptor.js';
import { embeddingSimilarity } from './descriptor/compare.js';
import { fivePointsOfMesh } from './descriptor/mesh-points.js';

/**
 * Face detection, mesh and head pose with @vladmandic/human (MIT) on the tfjs WASM backend: every
 * model file comes from the human npm package and the WASM binaries from
 * @tensorflow/tfjs-backend-wasm; one instance per process, inputs downscaled first (the WASM heap
 * never shrinks after a large image). The two models' own arithmetic runs on onnxruntime's
 * native kernels where it can (`FACE_RUNTIME`, `onnx/native-graph-model.ts`).
 * The face's descriptor is dlib's ResNet (`descriptor/`, @vladmandic/face-api's weights) on
 * onnxruntime, taken from the mesh's five points on the decoded pixels at full resolution.
 */
export interface FaceResult {
  /** Detector confidence 0-1. */
  score: number;
  /**
   * The face's descriptor in colour (dlib's ResNet, 128 values), empty where none was taken: pose
   * only (`embedding: false`), or a `meshless` face (no points to align it by).
   */
  embedding: number[];
  /** A selfie's descriptor of its face in grey, compared with a portrait printed in grey (`comparedEmbeddings`). */
  greyEmbedding?: number[];
  /** The face's pixels are grey (`GREY_CHROMA`): a portrait printed in grey. Set where a descriptor was taken. */
  grey?: boolean;
  /** Head pose in degrees: yaw (left/right), pitch (up/down), roll. Signs as the camera sees them. */
  yaw: number;
  pitch: number;
  roll: number;
  /** Face box relative to the analysed image, 0-1. */
  box: [number, number, number, number];
  /** Height of the eye line (between the outer corners of the eyes) relative to the analysed image, where the mesh gives it. */
  eyes?: number;
  /**
   * A selfie's face whose eyes lie near the frame's top or bottom edge (`atFrameEdge`), neither
   * `framedHigh` nor well inside: a small face framed high by a laptop's camera, or one cut at the
   * eyes by a photo of the chest. Kept, for a person to look at.
   */
  atFrameEdge?: boolean;
  /**
   * A selfie's face framed high by a camera held close (`framedHighAndClose`): its eyes near the
   * frame's top, the face large. Taken as a face; its match must be sure, since a face cut at the
   * eyes is framed so too and its eye line then guessed by the mesh (`VisionPipeline`).
   */
  framedHigh?: boolean;
  /**
   * A selfie's face the detector is sure of but the face mesh could not fit (a head turned well
   * away: a cameraman in profile behind his camcorder): no pose, no eye line, no points
   * to align a descriptor by (its `embedding` is empty, so it is not compared). Kept, for a person
   * to look at (`analyseSelfie`'s last resort).
   */
  meshless?: boolean;
}

interface HumanInstance {
  load(): Promise<void>;
  detect(
    input: unknown,
    config?: object,
  ): Promise<{
    face: {
      score: number;
      embedding?: number[];
      rotation?: { angle: { yaw: number; pitch: number; roll: number } };
      boxRaw: [number, number, number, number];
      /** The detector's confidence in its box, and the mesh's in the face it fitted (0 when not run). */
      boxScore: number;
      faceScore: number;
      mesh?: [number, number, number][];
      /** The mesh's points relative to the input's width and height. */
      meshRaw?: [number, number, number][];
    }[];
  }>;
  faceTriangulation: number[];
  tf: TfjsTensors & { tensor3d(data: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void } };
  models: { models: Record<string, TfjsGraphModel | null | undefined> };
}

/** Where the face models' arithmetic runs: onnxruntime's native CPU kernels, or tfjs's WebAssembly ones. */
export type FaceRuntime = 'native' | 'wasm';

/**
 * `FACE_RUNTIME`: `auto` (default) runs the models on onnxruntime where its binary loads and
 * every model converts, else on tfjs's WebAssembly backend; `native` requires onnxruntime (the
 * face models fail to start without it); `wasm` never uses it.
 */
export function requestedFaceRuntime(requested: string | undefined = process.env.FACE_RUNTIME): FaceRuntime | 'auto' {
  const kind = requested ?? 'auto';
  if (kind === 'auto' || kind === 'native' || kind === 'wasm') return kind;
  throw new Error(`FACE_RUNTIME must be auto, native or wasm (got ${kind})`);
}

/** The models human runs for a face: detector and mesh (the descriptor is `FaceDescriptor`'s). */
const FACE_MODELS = ['blazeface', 'facemesh'] as const;

/** The runtime this process's face models run on, once chosen: human keeps one instance of each model per process. */
let processRuntime: FaceRuntime | null = null;

/**
 * Moves the face models' `execute` onto onnxruntime, both or none: each is converted and
 * loaded before any is swapped in. Under `auto`, a failure keeps tfjs; under `native` it throws.
 * Chosen once per process; asking another of a later analyser throws.
 */
function chooseRuntime(human: HumanInstance, requested: FaceRuntime | 'auto'): FaceRuntime {
  if (processRuntime) {
    if (requested !== 'auto' && requested !== processRuntime)
      throw new Error(`the face models of this process already run on ${processRuntime}, not ${requested}`);
    return processRuntime;
  }
  processRuntime = swappedRuntime(human, requested);
  return processRuntime;
}

function swappedRuntime(human: HumanInstance, requested: FaceRuntime | 'auto'): FaceRuntime {
  if (requested === 'wasm') return 'wasm';
  try {
    const replacements = FACE_MODELS.map((name) => {
      const model = human.models.models[name];
      if (!model) throw new Error(`human did not load ${name}`);
      return { model, execute: onnxRuntimeExecute(model, human.tf, name) };
    });
    for (const { model, execute } of replacements) model.execute = execute;
    return 'native';
  } catch (err) {
    if (requested === 'native') throw err;
    return 'wasm';
  }
}

const require = createRequire(import.meta.url);
const HUMAN_ROOT = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
/** Where the human package keeps its model files (graph JSON and weights). */
export const HUMAN_MODELS_DIR = path.join(HUMAN_ROOT, 'models');

let fileFetchInstalled = false;
/**
 * Node's fetch cannot read file:// URLs, which is how human loads local models: answer those from
 * disk only. A model's graph is served with its clipped ReLUs and biases fused (fuse-activations.ts:
 * the same numbers, about half the face descriptor's time on the WASM backend).
 */
function installFileFetch(): void {
  if (fileFetchInstalled) return;
  fileFetchInstalled = true;
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return realFetch(input, init);
    const body = url.endsWith('.json') ? await fusedModelJson(new URL(url)) : await fs.promises.readFile(new URL(url));
    const type = url.endsWith('.json') ? 'application/json' : url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(body, { status: 200, headers: { 'Content-Type': type } });
  };
}

/**
 * A graph model's JSON with fuseActivations applied; the file as it is when nothing matches, when it
 * is not a graph model, or when anything about it does not read (then loading fails as it would have).
 */
async function fusedModelJson(url: URL): Promise<string> {
  const text = await fs.promises.readFile(url, 'utf8');
  try {
    const model = JSON.parse(text) as GraphModelJson;
    if (model.modelTopology?.node && model.weightsManifest) {
      const { model: fused, fused: count } = fuseActivations(model, scalarReader(model, await readWeights(model, url)));
      if (count > 0) return JSON.stringify(fused);
    }
  } catch {
    // Served unchanged below.
  }
  return text;
}

const RAD = 180 / Math.PI;
/** Rec. 601 luma weights: grey in all three channels (the models take RGB). */
const LUMA: [number, number, number] = [0.299, 0.587, 0.114];

export class FaceAnalyzer implements FaceModels {
  private constructor(
    private readonly human: HumanInstance,
    private readonly descriptor: FaceDescriptor,
    /** Where the detector's and mesh's arithmetic runs (`FACE_RUNTIME`); the descriptor runs on onnxruntime always. */
    readonly runtime: FaceRuntime,
  ) {}

  static async start(opts: { runtime?: FaceRuntime | 'auto' } = {}): Promise<FaceAnalyzer> {
    const requested = opts.runtime ?? requestedFaceRuntime();
    installFileFetch();
    const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
    // By file path: the package's exports map does not expose its WASM build.
    const { Human } = require(path.join(HUMAN_ROOT, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanInstance };
    const human = new Human({
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
      face: {
        enabled: true,
        detector: { rotation: true, maxDetected: 1, minConfidence: MESH_MIN_SCORE },
        mesh: { enabled: true },
        iris: { enabled: false },
        description: { enabled: false },
        emotion: { enabled: false },
        antispoof: { enabled: false },
        liveness: { enabled: false },
        attention: { enabled: false },
      },
    });
    // The descriptor has no tfjs version: without onnxruntime the service does not start (docs/pipeline.md).
    const [descriptor] = await Promise.all([FaceDescriptor.load().catch(descriptorUnavailable), human.load()]);
    return new FaceAnalyzer(human, descriptor, chooseRuntime(human, requested));
  }

  /**
   * The most confident face, or null. Decoded pixels are scaled to at most `maxSide` px; bytes are
   * decoded under the pipeline's policy straight to that size (an undecodable image throws
   * ImageDecodeError). `embedding: false` skips the embedding model (pose only; `embedding` is then empty).
   */
  async analyse(image: Buffer | DecodedImage, maxSide = 512, opts: { embedding?: boolean } = {}): Promise<FaceResult | null> {
    const decoded = Buffer.isBuffer(image) ? await decodeImage(image, maxSide) : image;
    return this.detect(decoded, maxSide, { embedding: opts.embedding ?? true });
  }

  /**
   * `analyse`; with `keepMeshless`, a face whose mesh did not fit is returned too, `meshless`, its
   * score the detector's; with `greyToo`, the descriptor is taken in grey as well (a selfie's).
   */
  private async detect(
    decoded: DecodedImage,
    maxSide: number,
    opts: { embedding: boolean; keepMeshless?: boolean; greyToo?: boolean },
  ): Promise<FaceResult | null> {
    const keepMeshless = opts.keepMeshless ?? false;
    const pipeline = fromDecoded(decoded).resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
    // The detector and mesh see grey, as they always have (the faces found and their poses are
    // unchanged by the descriptor's port); the descriptor takes the decoded pixels in colour.
    const { data, info } = await pipeline.recomb([LUMA, LUMA, LUMA]).raw().toBuffer({ resolveWithObject: true });
    const tensor = this.human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3], 'int32');
    try {
      // human merges a per-call config into its own for good, so every call states what it wants.
      const result = await this.human.detect(tensor, {
        face: { mesh: { enabled: true, keepInvalid: keepMeshless }, description: { enabled: false } },
      });
      const face = result.face[0];
      if (!face) return null;
      if (keepMeshless && face.faceScore < MESH_MIN_SCORE) {
        return face.boxScore >= MESHLESS_MIN_BOX_SCORE
          ? { score: face.boxScore, embedding: [], yaw: 0, pitch: 0, roll: 0, box: face.boxRaw, meshless: true }
          : null;
      }
      const described = opts.embedding ? await this.describe(decoded, face.boxRaw, face.meshRaw, opts.greyToo ?? false) : null;
      if (opts.embedding && !described) return null;
      const angle = face.rotation?.angle ?? { yaw: 0, pitch: 0, roll: 0 };
      return {
        score: face.score,
        ...(described ?? { embedding: [] }),
        yaw: angle.yaw * RAD,
        pitch: angle.pitch * RAD,
        roll: angle.roll * RAD,
        box: face.boxRaw,
        eyes: eyeLine(face.meshRaw),
      };
    } finally {
      tensor.dispose();
    }
  }

  /**
   * The portrait on a document photo. The printed face is small in the frame (a card filling half
   * of a 12 MP photo holds a face of a few percent of its width), and the detector sees its input
   * at 256 px: found on the whole picture only when large. So the face is first located with the
   * detector alone, on the whole picture and then on overlapping thirds of it, and the full
   * analysis (mesh, embedding) runs on a square crop around it taken from the decoded pixels,
   * where the face is large: the embedding is computed from real pixels, not an upscaled thumbnail.
   * The detector's finds on tiles are tried most confident first until one analyses as a sure face
   * (`DOCUMENT_SURE_SCORE`; else the surest found is taken): a round dark helmet or a seal beside
   * the portrait can outscore the printed face on its tile (dev: a helmet at 0.63, the face at
   * 0.54). The box returned is relative to the whole image.
   * The tiles are searched only when `searchTiles` (awaited then) says so: a document too blurred
   * to use has no portrait to find there, and its search is the dearest (28-30 detector runs, 2 s).
   */
  async analyseDocument(img: DecodedImage, opts: { searchTiles?: boolean | Promise<boolean> } = {}): Promise<FaceResult | null> {
    const tried: Box[] = [];
    // The surest face analysed under DOCUMENT_SURE_SCORE so far, taken should no sure one be found.
    let unsure: FaceResult | null = null;
    for await (const located of this.locate(img, opts.searchTiles ?? true)) {
      // Another tile's find of a face already analysed in vain is not analysed again.
      if (tried.some((t) => overlap(t, located) > 0.5)) continue;
      tried.push(located);
      const face = await this.analyseAround(img, located);
      if (face && face.score >= DOCUMENT_SURE_SCORE) return face;
      if (face && face.score > (unsure?.score ?? 0)) unsure = face;
    }
    return unsure;
  }

  /**
   * The face of a selfie. A selfie's face is often large in its frame (a phone held close: the
   * face three quarters of the width), and the models' crop around it, enlarged past the frame,
   * is then clipped and squeezed: the embedding of the same person fell to 0.40-0.43 and that of
   * another came up to 0.46. So the selfie is analysed first on a canvas with
   * black margins of half its size on each side, then of a quarter (the detector misses a few
   * faces on one margin or the other), and only then on the bare frame. The face must have its
   * eyes well inside the frame (`inFrame`: a face cut at the glasses by the top edge of a photo of
   * the chest is no face to match). When there is none, squares of the
   * picture's short side, from its middle out to both ends, are tried at that size, where the face
   * is larger to the detector: a face turned well away from the camera is found on some framings
   * only (dev: a profile behind a camcorder filling 36-44% of a landscape frame, found on none of
   * the whole frame's scales). A face found on a square must lie within the picture's height; a
   * profile may reach past its left or right edge by a quarter of its width (a cameraman at the
   * side of a portrait frame, `withinFrame`).
   */
  async analyseSelfie(img: DecodedImage): Promise<FaceResult | null> {
    // The first face found with its eyes near the frame's edge, should no face lie well inside it.
    let atEdge: FaceResult | null = null;
    // The first face found framed high and close (`framedHighAndClose`), should no framing give a
    // face well inside the frame: taken before a face at the edge.
    let framedHigh: FaceResult | null = null;
    // The first face found well inside the frame but unsure, should no framing give a sure one:
    // on the wider margins the detector can box a part of a close face (an eye and a cap's
    // badge, at 0.49, matched at 0.33), where the narrower one finds it whole. Only a
    // frontal face replaces it: the cameraman in profile, unsure at 0.40 on the wider margins, is
    // sure at 0.62 on the narrower ones, turned 36 degrees, and matched another woman at 0.51;
    // a profile compared with a frontal portrait proves nothing either way.
    let unsure: FaceResult | null = null;
    // Whether a framing gave a sure face boxed taller than the frame: a close face the models framed wrongly.
    let tooTall = false;
    const judged = (face: FaceResult | null) => {
      if (!face) return null;
      if (face.score >= SELFIE_SURE_SCORE && face.box[3] > 1) tooTall = true;
      if (!inFrame(face)) {
        if (framedHighAndClose(face)) framedHigh ??= { ...face, framedHigh: true };
        else if (atFrameEdge(face)) atEdge ??= { ...face, atFrameEdge: true };
        return null;
      }
      if (face.score < SELFIE_SURE_SCORE) unsure ??= face;
      else if (!unsure || Math.abs(face.yaw) <= REPLACING_MAX_YAW) return face;
      return null;
    };
    // A head the mesh cannot fit on the widest canvas, kept aside as the last resort (`meshless`).
    let meshless: FaceResult | null = null;
    const onMargins = async (margin: number, keepMeshless = false) => {
      // At the frame's own scale: the margins must not shrink a small face in the models' input.
      const side = Math.round(SELFIE_FACE_SIDE * (1 + 2 * margin));
      const found = await this.detect(await withMargins(img, margin), side, { embedding: true, keepMeshless, greyToo: true });
      return found && withoutMargins(found, margin);
    };
    // A face boxed wider than the frame by more than WIDE_BOX is a close face the models framed
    // wrongly: other margins are tried for a box that fits it, the narrowest box kept.
    const fitted = async (face: FaceResult): Promise<FaceResult> => {
      let best = face;
      for (const margin of WIDE_BOX_MARGINS) {
        if (best.box[2] <= WIDE_BOX) break;
        const other = judged(await onMargins(margin));
        if (other && other.box[2] < best.box[2] && other.score >= best.score - FITTED_SCORE_SLACK) best = other;
      }
      return best;
    };
    for (const margin of SELFIE_MARGINS) {
      const face = await onMargins(margin, margin === SELFIE_MARGINS[0]);
      if (face?.meshless) {
        meshless = clearOfTopAndBottom(face) ? face : null;
        continue;
      }
      const framed = judged(face);
      if (framed) return framed.box[2] > WIDE_BOX ? fitted(framed) : framed;
    }
    const whole = judged(await this.detect(img, SELFIE_FACE_SIDE, { embedding: true, greyToo: true })) ?? unsure;
    if (whole) return whole.box[2] > WIDE_BOX && whole !== unsure ? fitted(whole) : whole;
    // A close face boxed taller than the frame, its top far above it, on every framing so far (a
    // face filling a landscape frame from the brow to the chin): on wider margins, the face
    // smaller in the models' input, its box fits.
    for (const margin of tooTall ? WIDE_BOX_MARGINS : []) {
      const face = judged(await onMargins(margin));
      if (face) return face;
    }
    const W = img.pixelWidth;
    const H = img.pixelHeight;
    const side = Math.min(W, H);
    // A frame nearly square has no square to try but itself.
    if (Math.max(W, H) < 1.2 * side) return framedHigh ?? atEdge;
    for (const at of [0.5, 0.25, 0.75, 0, 1]) {
      const left = W > H ? Math.round(at * (W - side)) : 0;
      const top = H > W ? Math.round(at * (H - side)) : 0;
      const face = await this.analyseSquare(img, left, top, side, SELFIE_FACE_SIDE, true);
      if (face && withinFrame(face.box)) return face;
    }
    // The last resort: the detector's surest box on the canvas with the wider margins, which the
    // mesh could not fit. The cameraman in profile behind his camcorder, another person's selfie,
    // was rejected as showing no face: his head is boxed at
    // 0.66-0.90 by the detector on 19 selfies of seven splits, its top 0.30-0.40 of the frame
    // down, while the mesh scores it 0-0.49. Of 98 selfies without a face (the chest, a wall) two
    // give such a box, at 0.62 and 0.63: a chin cut by the top edge (its box at 0.01 and -0.07),
    // kept out by `clearOfTopAndBottom`. Such a face is never taken as sure (see `meshless`).
    return framedHigh ?? atEdge ?? meshless;
  }

  /** The full analysis on a square of 2.4 face sizes around a located face (relative box), or null. */
  private async analyseAround(img: DecodedImage, [bx, by, bw, bh]: Box): Promise<FaceResult | null> {
    const W = img.pixelWidth;
    const H = img.pixelHeight;
    // A square of 2.4 face sizes around the face: the whole head, with context for the mesh.
    const side = Math.min(W, H, Math.round(2.4 * Math.max(bw * W, bh * H)));
    const left = Math.max(0, Math.min(W - side, Math.round((bx + bw / 2) * W - side / 2)));
    const top = Math.max(0, Math.min(H - side, Math.round((by + bh / 2) * H - side / 2)));
    return this.analyseSquare(img, left, top, side, DOCUMENT_FACE_SIDE);
  }

  /** The full analysis of a square of the decoded pixels (scaled to at most `maxSide`), its box relative to the whole image. */
  private async analyseSquare(
    img: DecodedImage,
    left: number,
    top: number,
    side: number,
    maxSide: number,
    greyToo = false,
  ): Promise<FaceResult | null> {
    const { data, info } = await fromDecoded(img)
      .extract({ left, top, width: side, height: side })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const square: DecodedImage = { width: side, height: side, pixels: data, pixelWidth: info.width, pixelHeight: info.height };
    // A square under MIN_ANALYSED_SIDE (a portrait's face of 60-100 px) that gives no face is
    // analysed again enlarged to it: the mesh and embedding models miss faces that small.
    const want = { embedding: true, greyToo };
    const face =
      (await this.detect(square, maxSide, want)) ??
      (side < MIN_ANALYSED_SIDE ? await this.detect(await enlarged(square), maxSide, want) : null);
    if (!face) return null;
    const [fx, fy, fw, fh] = face.box;
    const W = img.pixelWidth;
    const H = img.pixelHeight;
    const box: Box = [(left + fx * side) / W, (top + fy * side) / H, (fw * side) / W, (fh * side) / H];
    return { ...face, box, ...(face.eyes === undefined ? {} : { eyes: (top + face.eyes * side) / H }) };
  }

  /**
   * Where faces may be (relative boxes), by the detector alone, most likely first: the whole
   * picture first; then, when nothing analysed there and `searchTiles` allows, what the thirds
   * found, most confident first; then smaller tiles.
   */
  private async *locate(img: DecodedImage, searchTiles: boolean | Promise<boolean>): AsyncGenerator<Box> {
    const whole = await this.detectOnly(img, { left: 0, top: 0, width: 1, height: 1 });
    if (whole) yield whole;
    if (!(await searchTiles)) return;
    // Tiles of 0.45 x 0.45 at steps of 0.275: every face under about a fifth of the picture lies whole in one.
    const thirds = [0, 0.275, 0.55].flatMap((top) => [0, 0.275, 0.55].map((left) => ({ left, top, width: 0.45, height: 0.45 })));
    yield* await this.facesOn(img, thirds);
    // Still nothing that analysed as a face: a portrait of 3-5% of the photo's width, in a tall
    // photo (whose tiles above are tall too) or half lost under a reflection, is found on smaller
    // square tiles: a side of 0.4 of the short side, overlapping by 30% (12-18 tiles, about 0.5 s,
    // paid only by a photo where no face was found so far). Also after the thirds found something
    // that was no face: a woven backdrop can hold a "face" on every third and hide the portrait.
    const W = img.pixelWidth;
    const H = img.pixelHeight;
    const side = 0.4 * Math.min(W, H);
    const starts = (length: number) => {
      const n = Math.max(1, Math.ceil((length - side) / (0.7 * side)) + 1);
      return Array.from({ length: n }, (_, i) => (n === 1 ? 0 : (i * (length - side)) / (n - 1)));
    };
    const squares = starts(H).flatMap((y) => starts(W).map((x) => ({ left: x / W, top: y / H, width: side / W, height: side / H })));
    yield* await this.facesOn(img, squares);
  }

  /**
   * The boxes of the faces found on the regions (relative boxes), most confident first. A face
   * found confidently (LOCATE_SURE_SCORE) and whole, clear of its tile's inner edges, ends the
   * search: the tiles after it would find that face again (dev fronts: 40% fewer detector runs).
   * One cut by a tile's edge, or found less surely, may be bettered by a tile that holds it whole.
   */
  private async facesOn(img: DecodedImage, regions: Region[]): Promise<Box[]> {
    const finds: { score: number; box: Box }[] = [];
    for (const r of regions) {
      const find = await this.detectOnly(img, r, true);
      if (!find) continue;
      finds.push(find);
      if (find.score >= LOCATE_SURE_SCORE && wholeWithin(find.box, r)) break;
    }
    return finds.sort((a, b) => b.score - a.score).map((f) => f.box);
  }

  private async detectOnly(img: DecodedImage, r: Region): Promise<Box | null>;
  private async detectOnly(img: DecodedImage, r: Region, withScore: true): Promise<{ score: number; box: Box } | null>;
  private async detectOnly(img: DecodedImage, r: Region, withScore = false): Promise<Box | { score: number; box: Box } | null> {
    const W = img.pixelWidth;
    const H = img.pixelHeight;
    const left = Math.round(r.left * W);
    const top = Math.round(r.top * H);
    const width = Math.min(W - left, Math.round(r.width * W));
    const height = Math.min(H - top, Math.round(r.height * H));
    const { data, info } = await fromDecoded(img)
      .extract({ left, top, width, height })
      .resize({ width: LOCATE_SIDE, height: LOCATE_SIDE, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const tensor = this.human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3], 'int32');
    try {
      const result = await this.human.detect(tensor, { face: { mesh: { enabled: false }, description: { enabled: false } } });
      const face = result.face[0];
      if (!face || face.score < LOCATE_MIN_SCORE) return null;
      const [fx, fy, fw, fh] = face.boxRaw;
      const box: Box = [(left + fx * width) / W, (top + fy * height) / H, (fw * width) / W, (fh * height) / H];
      return withScore ? { score: face.score, box } : box;
    } finally {
      tensor.dispose();
    }
  }

  /**
   * The face mesh of an RGB image at its own size (468 points, pixels; z, nearer the camera
   * smaller, on about the scale of x) with the model's triangulation, or null. Used to render the
   * test suites' head poses (`eval/head-pose.ts`), not by the pipeline.
   */
  async mesh(rgb: {
    data: Buffer;
    width: number;
    height: number;
  }): Promise<{ points: [number, number, number][]; triangles: number[] } | null> {
    const d = rgb.data;
    const tensor = this.human.tf.tensor3d(new Uint8Array(d.buffer, d.byteOffset, d.length), [rgb.height, rgb.width, 3], 'int32');
    try {
      const result = await this.human.detect(tensor, { face: { mesh: { enabled: true }, description: { enabled: false } } });
      const points = result.face[0]?.mesh;
      return points && points.length >= 468 ? { points: points.slice(0, 468), triangles: this.human.faceTriangulation } : null;
    } finally {
      tensor.dispose();
    }
  }

  /**
   * The descriptor of a face found on `img` (its box and mesh relative to the image, as human
   * gives `boxRaw` and `meshRaw`), on the image's own pixels: dlib's chip aligned by the mesh's five
   * points, resampled from the full resolution (`alignedCrop`). The points come from the mesh
   * fitted again in colour on a square of 2.4 face sizes around the box (`meshInColour`), as the
   * descriptor was measured: the grey mesh of the finding, on a canvas with wide margins, can sit a
   * face's height off (a close selfie matched its own photo at 0.32 so, 0.97 from the square).
   * Null without a mesh.
   */
  private async describe(
    img: DecodedImage,
    boxRaw: [number, number, number, number],
    meshRaw: [number, number, number][] | undefined,
    greyToo: boolean,
  ): Promise<Pick<FaceResult, 'embedding' | 'greyEmbedding' | 'grey'> | null> {
    const W = img.pixelWidth;
    const H = img.pixelHeight;
    const mesh = (await this.meshInColour(img, boxRaw)) ?? meshRaw?.map(([x, y]) => [x * W, y * H]);
    if (!mesh || mesh.length < 468) return null;
    const chip = await alignedCrop({ data: img.pixels, width: W, height: H }, fivePointsOfMesh(mesh), DLIB_150);
    const embedding = Array.from(await this.descriptor.describeChip(chip));
    const greyEmbedding = greyToo ? Array.from(await this.descriptor.describeChip(greyChip(chip))) : undefined;
    return { embedding, grey: chromaSpread(chip) < GREY_CHROMA, ...(greyEmbedding ? { greyEmbedding } : {}) };
  }

  /**
   * The face mesh (image pixels) fitted in colour on a square of 2.4 face sizes around a box
   * (relative), scaled to DESCRIBE_MESH_SIDE (enlarged when smaller), or null where none fits.
   */
  private async meshInColour(img: DecodedImage, [bx, by, bw, bh]: [number, number, number, number]): Promise<number[][] | null> {
    const W = img.pixelWidth;
    const H = img.pixelHeight;
    const side = Math.min(W, H, Math.round(2.4 * Math.max(bw * W, bh * H)));
    if (side < 8) return null;
    const left = Math.max(0, Math.min(W - side, Math.round((bx + bw / 2) * W - side / 2)));
    const top = Math.max(0, Math.min(H - side, Math.round((by + bh / 2) * H - side / 2)));
    const { data, info } = await fromDecoded(img)
      .extract({ left, top, width: side, height: side })
      .resize(DESCRIBE_MESH_SIDE, DESCRIBE_MESH_SIDE, { fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const tensor = this.human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3], 'int32');
    try {
      const result = await this.human.detect(tensor, {
        face: { mesh: { enabled: true, keepInvalid: false }, description: { enabled: false } },
      });
      const raw = result.face[0]?.meshRaw;
      return raw && raw.length >= 468 ? raw.map(([x, y]) => [left + x * side, top + y * side]) : null;
    } finally {
      tensor.dispose();
    }
  }

  /** Similarity of two descriptors on the contract's 0-1 scale (`faceMatchScore` of their cosine); 0 when either is missing. */
  similarity(a: number[], b: number[]): Promise<number> {
    return Promise.resolve(embeddingSimilarity(a, b));
  }

  /** Releases the descriptor's onnxruntime session. */
  async release(): Promise<void> {
    await this.descriptor.release();
  }
}

/**
 * A chip whose chroma spreads less than this (`chromaSpread`, 0-255) is grey: a portrait printed
 * in grey. On the real-face set's rendered documents (4 in 10 printed grey) the portraits were
 * told rightly 167 of 167 times as rendered and 165 of 166 photographed through the camera effects
 * (evaluation/src/faces/service-measure.ts).
 */
export const GREY_CHROMA = 4;

function descriptorUnavailable(err: unknown): never {
  throw new Error(`the face descriptor needs onnxruntime-node, which did not load: ${(err as Error).message}`);
}

/** A selfie's face the policy takes as sure (below it, the verification is reviewed as maybe showing no face). */
const SELFIE_SURE_SCORE = POLICY.selfieFace.minConfidence;
/** A sure selfie face found after an unsure one replaces it only when turned at most this far (degrees of yaw). */
const REPLACING_MAX_YAW = 20;
/**
 * A document's face analysed at least this surely ends the search; one under it is kept while the
 * rest of the picture is searched for a surer one. On a passport page a printed astronaut's
 * chest patch, located on the whole picture, analysed as a face at 0.64 and the search stopped
 * there: the person was rejected for another face; the tiles hold her
 * face. Faces on the genuine fronts of two held-out splits (200) analysed at 0.98 or
 * more, but for that patch.
 */
const DOCUMENT_SURE_SCORE = 0.8;
/** human's line for a fitted mesh (its detector.minConfidence, as configured in `start`). */
const MESH_MIN_SCORE = 0.3;
/** A box the detector is sure of, kept without a mesh (`analyseSelfie`'s last resort). */
const MESHLESS_MIN_BOX_SCORE = 0.6;
/** How far (a share of the frame's height) a meshless face's box keeps clear of the frame's top and bottom. */
const MESHLESS_CLEAR = 0.05;

/** The square a described face's mesh is fitted on again in colour (px; the real-face measurement's). */
const DESCRIBE_MESH_SIDE = 512;
/** The detector's own input is 256 px: locating needs no more pixels than this. */
const LOCATE_SIDE = 512;
/** A selfie (or a square of it) is analysed scaled to this side. */
const SELFIE_FACE_SIDE = 512;
/** A located face is analysed on a crop scaled to this side. */
const DOCUMENT_FACE_SIDE = 384;
/** A square smaller than this that shows no face is tried again enlarged to it (px). */
const MIN_ANALYSED_SIDE = 256;

/**
 * Margins a selfie is analysed with, each a share of its width and height added on every side:
 * a held-out split's 180 genuine selfies against its 14 other people's, similarity (FaceRes, the
 * descriptor before dlib's) of the same person
 * at least 0.47 (but a portrait 50 px tall, 0.30) and of others at most 0.37 with [0.5, 0.25],
 * against 0.40-0.43 and 0.46 on the bare frame; dev's 100 and 14: at least 0.48, at most 0.33.
 */
const SELFIE_MARGINS = [0.5, 0.25] as const;

/**
 * A selfie's face boxed wider than this (a share of the frame's width) was framed wrongly by the
 * models: a face close to the camera (three quarters of a portrait frame's width, its cheeks cut)
 * boxed 1.5-1.8 frames wide matched its own portrait at 0.40-0.63, boxed 0.8-1.46 wide on other margins at 0.58-0.97. Of 270 selfies the six boxed over 1.3 were those close faces.
 */
const WIDE_BOX = 1.3;
/**
 * A narrower box replaces a close face's wide one only when the detector is about as sure of it:
 * on the widest margins it can box a part of the face (a face filling a 720 x 1280
 * frame: the glasses and an eye boxed 0.47 wide at 0.78, where the face itself was boxed
 * 1.43 wide at 1.0), which matched its own portrait at 0.18 and rejected a genuine user.
 */
const FITTED_SCORE_SLACK = 0.05;
/** The margins a selfie's face boxed wider than WIDE_BOX is looked for with again, in turn. */
const WIDE_BOX_MARGINS = [0.35, 0.75, 1] as const;

/**
 * How far inside a selfie's frame (a share of its height) its eye line must lie: genuine selfies
 * of dev and a held-out split (280) at 0.23-0.60; a face cut at the glasses by the top of a photo of
 * the chest, 0.12.
 */
const EYES_INSIDE = 0.15;
/**
 * Eyes between this and EYES_INSIDE of the frame's edge: a face at the edge (`atFrameEdge`), kept
 * for review rather than taken for no face at all. Genuine selfies of a check set drawn
 * differently (scripts/cross-check-set.mjs), framed high with the hair cut by the frame, at
 * 0.107-0.120, had been rejected; a chest of the dev split is at 0.118 too, so neither is approved.
 * It was 0.08 until a sure face (1.0) at 0.076 whose forehead alone
 * the frame cuts, was rejected for `no_face_in_selfie`. Of 70 selfies of the `no_face` class (dev
 * and four retired seeds) one lies between, the chest with the face cut at the
 * glasses (0.057), now in review for that reason rather than rejected; under the line, two faces
 * the mesh fits unsurely at 0.036 and 0.042.
 */
const EYES_AT_EDGE = 0.05;

/**
 * A face framed high with its eyes this far inside the frame's top or more, and boxed CLOSE_FACE of
 * the frame's height or more, is a face (`framedHighAndClose`): the camera close to the face cut
 * its hair or brow, not aimed below it. Collins's official photograph fitted to a 640 x 480 frame
 * by cropping its top and bottom (CSS `object-fit: cover`) puts her eyes at 0.098 and her face box
 * 0.43 high; check sets frame her so (eyes at 0.09-0.102, boxes 0.32-0.34). A frame aimed at the
 * chest catches a smaller face at its top, or less of one: of 182 selfies of the `no_face` class
 * (dev and eleven retired seeds), the six faces found at the edge have their eyes at 0.057-0.073
 * (boxed 0.20-0.30 high) or, once, a face boxed 0.21 high with its eyes at 0.134 (cut at
 * the glasses): none is both. The mesh guesses the eyes of a face cut at them (the same photo
 * fitted to 1280 x 720, its eyes above the frame, gives 0.094 and a box 0.34 high, matched to her
 * at 0.40): such a face must match surely to be taken (`framedHigh`).
 */
const FRAMED_HIGH_EYES = 0.09;
const CLOSE_FACE = 0.3;

/**
 * The image on a black canvas `margin` of its size wider on every side. Black, not the edge pixels
 * carried out: a chin cut by the top edge, smeared upwards, reads as a whole face.
 */
async function withMargins(img: DecodedImage, margin: number): Promise<DecodedImage> {
  const x = Math.round(img.pixelWidth * margin);
  const y = Math.round(img.pixelHeight * margin);
  const { data, info } = await fromDecoded(img)
    .extend({ top: y, bottom: y, left: x, right: x, background: { r: 0, g: 0, b: 0 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: data, pixelWidth: info.width, pixelHeight: info.height };
}

/** A face found on `withMargins(img, margin)`, its box and eye line relative to `img` itself. */
function withoutMargins(face: FaceResult, margin: number): FaceResult {
  const k = 1 + 2 * margin;
  const [x, y, w, h] = face.box;
  return {
    ...face,
    box: [x * k - margin, y * k - margin, w * k, h * k],
    ...(face.eyes === undefined ? {} : { eyes: face.eyes * k - margin }),
  };
}

/** The height of the midpoint between the outer corners of the eyes (FaceMesh points 33 and 263). */
function eyeLine(mesh: [number, number, number][] | undefined): number | undefined {
  const a = mesh?.[33];
  const b = mesh?.[263];
  return a && b ? (a[1] + b[1]) / 2 : undefined;
}

/** A decoded square enlarged to MIN_ANALYSED_SIDE. */
async function enlarged(square: DecodedImage): Promise<DecodedImage> {
  const { data, info } = await fromDecoded(square)
    .resize({ width: MIN_ANALYSED_SIDE, height: MIN_ANALYSED_SIDE, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: data, pixelWidth: info.width, pixelHeight: info.height };
}
type Box = [number, number, number, number];

/** The share of the smaller of two boxes that lies inside the other. */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? (w * h) / Math.min(a[2] * a[3], b[2] * b[3]) : 0;
}

/** From this the detector's find on a tile is surely a face (dev portraits on tiles: 0.5-0.93). */
const LOCATE_SURE_SCORE = 0.7;
/**
 * A box (relative to the image) lies whole within a tile: clear of each edge of the tile by 2% of
 * the tile's size, except where that edge is the image's own.
 */
function wholeWithin(box: Box, tile: Region): boolean {
  const [x, y, w, h] = box;
  const mx = 0.02 * tile.width;
  const my = 0.02 * tile.height;
  const right = tile.left + tile.width;
  const bottom = tile.top + tile.height;
  return (
    (tile.left <= 0 || x >= tile.left + mx) &&
    (tile.top <= 0 || y >= tile.top + my) &&
    (right >= 1 || x + w <= right - mx) &&
    (bottom >= 1 || y + h <= bottom - my)
  );
}

/**
 * A selfie's face, relative to the frame: its eyes inside it by EYES_INSIDE of its height, and its
 * box past its top or bottom edge by at most a quarter of the box's height. The models' box is
 * larger than the face (close selfies of a held-out split reach past by up to 17% of it); a face cut
 * at the eyes by the top of a photo of the chest or a chin there is no
 * face to match.
 */
function inFrame({ box, eyes }: FaceResult): boolean {
  return heightInFrame(box) && (eyes === undefined || eyesInside(eyes, EYES_INSIDE));
}

/**
 * A selfie's face not `inFrame` for its eyes alone, framed high by a camera held close: its eyes
 * near the frame's top (FRAMED_HIGH_EYES to EYES_INSIDE), the face itself large (its box
 * CLOSE_FACE of the frame's height or more).
 */
function framedHighAndClose({ box, eyes }: FaceResult): boolean {
  return heightInFrame(box) && eyes !== undefined && eyes >= FRAMED_HIGH_EYES && eyes < EYES_INSIDE && box[3] >= CLOSE_FACE;
}

/** A selfie's face inside the frame as `inFrame` has it, but for its eyes, which lie between EYES_AT_EDGE and EYES_INSIDE of an edge. */
function atFrameEdge({ box, eyes }: FaceResult): boolean {
  return heightInFrame(box) && eyes !== undefined && eyesInside(eyes, EYES_AT_EDGE);
}

/** A box past the frame's top or bottom edge by at most a quarter of its height. */
const heightInFrame = ([, y, , h]: Box) => y >= -0.25 * h && y + h <= 1 + 0.25 * h;

/** An eye line at least `margin` of the frame's height inside its top and its bottom. */
const eyesInside = (eyes: number, margin: number) => eyes >= margin && eyes <= 1 - margin;

/** A meshless face's box clear of the frame's top and bottom by MESHLESS_CLEAR of its height. */
const clearOfTopAndBottom = ({ box: [, y, , h] }: FaceResult) => y >= MESHLESS_CLEAR && y + h <= 1 - MESHLESS_CLEAR;

/** A selfie's face found on a square: whole in height, at most a quarter of its width past a side edge. */
function withinFrame([x, y, w, h]: Box): boolean {
  return y >= 0 && y + h <= 1 && x >= -0.25 * w && x + w <= 1 + 0.25 * w;
}

/** Below this the detector's find on a tile is texture (a flag, a seal), not a face. */
const LOCATE_MIN_SCORE = 0.5;
