/**
 * The face descriptor chosen by the real-face measurement (docs: evaluation/src/faces/README.md):
 * dlib's ResNet face descriptor as @vladmandic/face-api ships it (model/face_recognition_model*,
 * MIT), run on onnxruntime's native CPU kernels (`dlib-resnet-onnx.ts`), fed dlib's aligned
 * 150 x 150 chip (`face-align.ts`, `face-crop.ts`) from the five points of the face mesh the
 * service already fits (`mesh-points.ts`). Self-contained: it needs sharp, onnxruntime-node,
 * the face-api package's model files and the service's ONNX encoder.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { encodeOnnxModel } from '../onnx/onnx-model.js';
import { DESCRIPTOR_LENGTH, dlibResnetGraph, INPUT_SIDE, readWeights } from './dlib-resnet-onnx.js';
import { DLIB_150, type FivePoints, type RgbImage } from './face-align.js';
import { alignedCrop } from './face-crop.js';

export { similarity } from './compare.js';

const require = createRequire(import.meta.url);

/** Where @vladmandic/face-api keeps its model files. */
export function faceApiModelDir(): string {
  return path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
}

/** The model files' size, bytes (its weights manifest and shard). */
export function modelFileBytes(dir = faceApiModelDir()): number {
  return ['face_recognition_model-weights_manifest.json', 'face_recognition_model.bin'].reduce(
    (s, f) => s + fs.statSync(path.join(dir, f)).size,
    0,
  );
}

/** A crop's interleaved RGB as the graph's NCHW float input (0-255: the graph normalises). */
export function chipTensor(chip: RgbImage): Float32Array {
  const n = chip.width * chip.height;
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) out[c * n + i] = chip.data[3 * i + c]!;
  return out;
}

export class FaceDescriptor {
  private constructor(private readonly session: ort.InferenceSession) {}

  /** The net built from the package's weights and loaded into onnxruntime (one thread unless told). */
  static async load(opts: { modelDir?: string; threads?: number } = {}): Promise<FaceDescriptor> {
    const bytes = encodeOnnxModel(dlibResnetGraph(readWeights(opts.modelDir ?? faceApiModelDir())), 'dlib-resnet-face-descriptor');
    const session = await ort.InferenceSession.create(bytes, {
      executionProviders: ['cpu'],
      intraOpNumThreads: opts.threads ?? 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    return new FaceDescriptor(session);
  }

  /** The descriptor of a 150 x 150 chip already aligned to `DLIB_150`. */
  async describeChip(chip: RgbImage): Promise<Float32Array> {
    if (chip.width !== INPUT_SIDE || chip.height !== INPUT_SIDE) throw new Error(`a chip is ${INPUT_SIDE} x ${INPUT_SIDE}`);
    const input = new ort.Tensor('float32', chipTensor(chip), [1, 3, INPUT_SIDE, INPUT_SIDE]);
    const out = await this.session.run({ input });
    const values = out.descriptor!.data as Float32Array;
    if (values.length !== DESCRIPTOR_LENGTH) throw new Error('unexpected descriptor length');
    return Float32Array.from(values);
  }

  /** The descriptor of the face whose five points (image pixels, `FivePoints` order) are given. */
  async describe(img: RgbImage, points: FivePoints): Promise<Float32Array> {
    return this.describeChip(await alignedCrop(img, points, DLIB_150));
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
